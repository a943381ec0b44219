/// An I-frame playlist entry names the bytes of one picture (RFC 8216bis
/// §4.4.3.6): in MPEG-TS, the packets from the PAT and PMT through the
/// keyframe's whole PES packet, and no other picture.
public enum IFramePictureCheck {
  /// Why the clear bytes of an MPEG-TS I-frame range are not exactly one
  /// keyframe access unit; nil when they are.
  public static func transportStreamProblem(_ bytes: ArraySlice<UInt8>) -> String? {
    var inspector = TransportStreamInspector(checker: nil)
    inspector.consume(bytes)
    let facts = inspector.finish()
    if facts.videoAccessUnits != 1 {
      return "the range holds \(facts.videoAccessUnits) video access units, not one"
    }
    return facts.startsWithKeyframe == true ? nil : "its access unit is not an IDR"
  }
}
