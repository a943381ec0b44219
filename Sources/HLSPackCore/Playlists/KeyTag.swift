/// One EXT-X-KEY (or EXT-X-SESSION-KEY) as written. Equality decides when a
/// new tag must be written before a segment.
public struct KeyTag: Sendable, Equatable, Codable {
  public enum Method: String, Sendable, Codable {
    case none = "NONE"
    case aes128 = "AES-128"
    case sampleAES = "SAMPLE-AES"
  }

  public var method: Method
  public var uri: String?
  /// Explicit 16-byte IV, or nil when clients derive it from the media sequence number.
  public var iv: [UInt8]?
  /// Written only when set; absent means "identity" / "1".
  public var keyFormat: String?
  public var keyFormatVersions: String?

  public init(method: Method, uri: String?, iv: [UInt8]?, keyFormat: String? = nil, keyFormatVersions: String? = nil) {
    self.method = method
    self.uri = uri
    self.iv = iv
    self.keyFormat = keyFormat
    self.keyFormatVersions = keyFormatVersions
  }

  public static let none = KeyTag(method: .none, uri: nil, iv: nil)

  /// The minimum EXT-X-VERSION this tag requires (RFC 8216bis §8).
  var requiredVersion: Int {
    if method == .sampleAES || keyFormat != nil || keyFormatVersions != nil { return 5 }
    return iv == nil ? 1 : 2
  }

  var attributes: String {
    guard method != .none else { return "METHOD=NONE" }
    var parts = ["METHOD=\(method.rawValue)"]
    if let uri { parts.append("URI=\"\(uri)\"") }
    if let iv { parts.append("IV=\(Self.formatIV(iv))") }
    if let keyFormat { parts.append("KEYFORMAT=\"\(keyFormat)\"") }
    if let keyFormatVersions { parts.append("KEYFORMATVERSIONS=\"\(keyFormatVersions)\"") }
    return parts.joined(separator: ",")
  }

  /// `0x` + 32 upper-case hex digits (RFC 8216bis §4.2; docs/conformance.md, IVs).
  public static func formatIV(_ iv: [UInt8]) -> String {
    "0x" + Hex.encode(iv, uppercase: true)
  }
}
