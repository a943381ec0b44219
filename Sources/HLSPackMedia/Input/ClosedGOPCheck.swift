import HLSPackCore

/// Refuses a segment that would not decode on its own (Apple HLS Authoring Spec 7.4): one
/// that opens on an open-GOP keyframe, or on an HEVC CRA whose RASL pictures
/// refer to the previous segment. Copy mode cannot re-encode, so the run fails.
struct ClosedGOPCheck {
  let rendition: String
  let path: String
  let hevc: Bool
  let lengthSize: Int?
  /// The CRA that opened the segment, until its leading pictures are over.
  private var openingCRA: Double?

  init(rendition: String, path: String, hevc: Bool, lengthSize: Int?) {
    self.rendition = rendition
    self.path = path
    self.hevc = hevc
    self.lengthSize = lengthSize
  }

  mutating func open(segmentAt seconds: Double, _ access: @autoclosure () -> [UInt8]) throws {
    switch RandomAccess.opening(
      nalTypes: RandomAccess.nalTypes(access(), lengthSize: lengthSize, hevc: hevc), hevc: hevc)
    {
    case .independent: openingCRA = nil
    case .cleanRandomAccess: openingCRA = seconds
    case .dependent:
      throw refusal(String(format: "the keyframe at %.3f s that opens a segment is not an IDR picture", seconds))
    }
  }

  mutating func follow(at seconds: Double, _ access: @autoclosure () -> [UInt8]) throws {
    guard let cra = openingCRA else { return }
    let types = RandomAccess.nalTypes(access(), lengthSize: lengthSize, hevc: hevc)
    if RandomAccess.isSkippedLeading(nalTypes: types, hevc: hevc) {
      throw refusal(
        String(
          format:
            "the CRA picture at %.3f s that opens a segment is followed by a RASL picture (at %.3f s) that refers to the segment before",
          cra, seconds))
    }
    // Leading pictures come first in decode order; a trailing one ends them.
    if types.contains(where: { $0 <= 1 }) { openingCRA = nil }
  }

  private func refusal(_ what: String) -> PackError {
    .input(
      path: path,
      reason: "rendition \(rendition): \(what) (open GOP), so the segment would not decode on its own; "
        + "copy mode needs closed GOPs (x264: open-gop=0, x265: no-open-gop=1)")
  }
}
