import HLSPackCore

/// Refuses a segment that would not decode on its own (conformance C1): one
/// that opens on an open-GOP keyframe, or on an HEVC CRA whose RASL pictures
/// refer to the previous segment. Copy mode cannot re-encode, so the run fails.
struct ClosedGOPCheck {
  let rendition: String
  let path: String
  let hevc: Bool
  let lengthSize: Int?
  /// After a CRA, until its leading pictures are over.
  private var watchingLeadingPictures = false

  init(rendition: String, path: String, hevc: Bool, lengthSize: Int?) {
    self.rendition = rendition
    self.path = path
    self.hevc = hevc
    self.lengthSize = lengthSize
  }

  mutating func open(segmentAt seconds: Double, _ access: @autoclosure () -> [UInt8]) throws {
    switch RandomAccess.opening(nalTypes: RandomAccess.nalTypes(access(), lengthSize: lengthSize, hevc: hevc), hevc: hevc) {
    case .independent: watchingLeadingPictures = false
    case .cleanRandomAccess: watchingLeadingPictures = true
    case .dependent: throw refusal(String(format: "the keyframe at %.3f s that opens a segment is not an IDR picture", seconds))
    }
  }

  mutating func follow(at seconds: Double, _ access: @autoclosure () -> [UInt8]) throws {
    guard watchingLeadingPictures else { return }
    let types = RandomAccess.nalTypes(access(), lengthSize: lengthSize, hevc: hevc)
    if RandomAccess.isSkippedLeading(nalTypes: types, hevc: hevc) {
      throw refusal(String(format: "the picture at %.3f s is a RASL picture that refers to the segment before", seconds))
    }
    // Leading pictures come first in decode order; a trailing one ends them.
    if types.contains(where: { $0 <= 1 }) { watchingLeadingPictures = false }
  }

  private func refusal(_ what: String) -> PackError {
    .input(
      path: path,
      reason: "rendition \(rendition): \(what) (open GOP), so the segment would not decode on its own; "
        + "copy mode needs closed GOPs (x264: open-gop=0, x265: no-open-gop=1)")
  }
}
