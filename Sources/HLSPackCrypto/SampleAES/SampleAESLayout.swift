/// Which bytes SAMPLE-AES encrypts in MPEG-TS: Apple's "MPEG-2 Stream
/// Encryption Format for HTTP Live Streaming" §2.2–2.3.
public enum SampleAESLayout {
  /// H.264 NAL units of these types are encrypted: 1 (non-IDR slice), 5 (IDR slice).
  public static func isEncryptedVideoType(_ nalHeader: UInt8) -> Bool {
    let type = nalHeader & 0x1F
    return type == 1 || type == 5
  }

  /// Only NAL units longer than 48 bytes (header included, start code not) are encrypted.
  public static let minimumEncryptedNALLength = 49

  /// Offsets of the encrypted 16-byte blocks of a NAL unit of `length` bytes:
  /// 32 clear bytes, then a block whenever **more** than 16 bytes remain, then
  /// up to 144 clear bytes, repeated. So a block at `32 + 160k` is encrypted
  /// iff it ends before the NAL does (`< length − 16`), and at least one clear
  /// byte always follows the last one.
  public static func videoBlocks(nalLength length: Int) -> StrideTo<Int> {
    stride(from: 32, to: length - 16, by: 160)
  }

  /// The encrypted range of one audio frame of `length` bytes, `header` of
  /// which is an ADTS header (0 for raw AAC and AC-3): after the header, 16
  /// clear leader bytes, then every whole block (at least 16 bytes left, unlike
  /// video); the 0–15 byte tail stays clear. A payload under 32 bytes has no block.
  public static func audioBlocks(frameLength length: Int, header: Int) -> Range<Int> {
    let start = header + 16
    let blocks = max(0, (length - start) / 16)
    return start..<start + 16 * blocks
  }
}
