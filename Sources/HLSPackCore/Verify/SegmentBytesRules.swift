/// Checks of a segment's clear bytes: that they are the container the
/// playlist implies, which is also how a wrong key or IV shows.
public enum SegmentBytesRules {
  static let packetSize = 188
  static let syncByte: UInt8 = 0x47

  /// nil when the bytes are whole 188-byte MPEG-TS packets each starting with
  /// 0x47 (ISO/IEC 13818-1 §2.4.3.2); otherwise what is wrong.
  public static func transportStreamProblem(_ bytes: [UInt8]) -> String? {
    guard !bytes.isEmpty else { return "no bytes" }
    var offset = 0
    while offset < bytes.count {
      guard bytes[offset] == syncByte else { return "byte \(offset) is not the 0x47 sync byte" }
      offset += packetSize
    }
    return bytes.count % packetSize == 0 ? nil : "\(bytes.count) bytes is not a whole number of 188-byte packets"
  }

  /// nil when the bytes are a run of ISO BMFF boxes ending exactly at the end
  /// (ISO/IEC 14496-12 §4.2), with a first box a media segment can open with.
  public static func fragmentProblem(_ bytes: [UInt8]) -> String? {
    var offset = 0
    var first = true
    while offset < bytes.count {
      guard bytes.count - offset >= 8 else { return "\(bytes.count - offset) stray bytes at offset \(offset)" }
      var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      if first, !segmentOpeners.contains(type) { return "first box is \(type.debugDescription)" }
      if size == 1 {
        guard bytes.count - offset >= 16 else { return "truncated box header at offset \(offset)" }
        size = bytes[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) }
      } else if size == 0 {
        size = bytes.count - offset
      }
      guard size >= 8, size <= bytes.count - offset else { return "box \(type.debugDescription) at offset \(offset) overruns the segment" }
      offset += size
      first = false
    }
    return first ? "no bytes" : nil
  }

  static let segmentOpeners: Set<String> = ["styp", "sidx", "moof", "emsg", "prft", "ftyp"]
}
