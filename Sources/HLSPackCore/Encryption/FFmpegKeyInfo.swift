/// FFmpeg's HLS key-info file (`-hls_key_info_file`): line 1 the key URI as
/// written into the playlist, line 2 the path of the 16-byte key file,
/// optional line 3 the IV as 32 hex digits without `0x`.
public struct FFmpegKeyInfo: Sendable, Equatable {
  public var uri: String
  public var keyPath: String
  public var iv: [UInt8]?

  public init(uri: String, keyPath: String, iv: [UInt8]?) {
    self.uri = uri
    self.keyPath = keyPath
    self.iv = iv
  }

  /// Nil with a reason when the text is not a key-info file.
  public static func parse(_ text: String) -> Result<FFmpegKeyInfo, KeyURITemplateError> {
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
      .map { $0.trimmingSpaces() }
    guard lines.count >= 2, !lines[0].isEmpty, !lines[1].isEmpty else {
      return .failure(KeyURITemplateError("expected a key URI on line 1 and a key file path on line 2"))
    }
    var iv: [UInt8]?
    if lines.count > 2, !lines[2].isEmpty {
      guard let bytes = Hex.decode(lines[2]), bytes.count == 16 else {
        return .failure(KeyURITemplateError("line 3 must be an IV of 32 hex digits"))
      }
      iv = bytes
    }
    return .success(FFmpegKeyInfo(uri: lines[0], keyPath: lines[1], iv: iv))
  }

  public var text: String {
    [uri, keyPath, iv.map { Hex.encode($0) }].compactMap { $0 }.joined(separator: "\n") + "\n"
  }
}
