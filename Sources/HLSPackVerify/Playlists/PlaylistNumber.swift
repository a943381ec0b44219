import HLSPackCore

/// The numeric types of RFC 8216bis §4.2, read strictly: a value a client's
/// parser refuses is refused here too (nil), so that no rule computes with it,
/// and what is read is finite and in range, so that every rule's arithmetic is.
public enum PlaylistNumber {
  /// What a value must be.
  public enum Kind: Sendable {
    /// decimal-integer: 1 to 20 digits, 0 to 2^64 − 1.
    case integer
    /// decimal-floating-point: digits and at most one ".", non-negative.
    case float
    /// signed-decimal-floating-point: a decimal-floating-point, "-" allowed in front.
    case signedFloat
    /// decimal-resolution: two decimal-integers joined by "x".
    case resolution
    /// The quoted-string "n[@o]" of EXT-X-MAP's BYTERANGE: decimal-integers.
    case byteRange

    var name: String {
      switch self {
      case .integer: "a decimal-integer (0 to 18446744073709551615)"
      case .float: "a decimal-floating-point number"
      case .signedFloat: "a signed-decimal-floating-point number"
      case .resolution: "a decimal-resolution (WIDTHxHEIGHT)"
      case .byteRange: "a byte range n[@o] of decimal-integers"
      }
    }
  }

  static let digits: ClosedRange<UInt8> = 48...57

  /// A decimal-integer; nil when `text` is not one or exceeds 2^64 − 1.
  public static func decimalInteger<Text: StringProtocol>(_ text: Text) -> UInt64? {
    let bytes = text.utf8
    guard (1...20).contains(bytes.count), bytes.allSatisfy({ digits.contains($0) }) else { return nil }
    return UInt64(text)
  }

  /// A decimal-integer that fits in `Int`: a byte offset or length, which no
  /// file reaches beyond that; nil otherwise.
  public static func offset<Text: StringProtocol>(_ text: Text) -> Int? {
    decimalInteger(text).flatMap { $0 <= UInt64(Int.max) ? Int($0) : nil }
  }

  /// A decimal-floating-point number, finite; nil when `text` is not one
  /// ("nan", "inf", "1e3", "0x10" are not) or is too large for a Double.
  public static func decimalFloat<Text: StringProtocol>(_ text: Text) -> Double? {
    let bytes = text.utf8
    guard bytes.contains(where: { digits.contains($0) }),
      bytes.allSatisfy({ digits.contains($0) || $0 == UInt8(ascii: ".") }),
      bytes.filter({ $0 == UInt8(ascii: ".") }).count <= 1,
      let value = Double(String(text)), value.isFinite
    else { return nil }
    return value
  }

  public static func signedDecimalFloat<Text: StringProtocol>(_ text: Text) -> Double? {
    guard text.hasPrefix("-") else { return decimalFloat(text) }
    return decimalFloat(text.dropFirst()).map { -$0 }
  }

  /// Why `text` is not of `kind`; nil when it is.
  public static func problem(_ text: String, kind: Kind) -> String? {
    let valid: Bool
    switch kind {
    case .integer: valid = decimalInteger(text) != nil
    case .float: valid = decimalFloat(text) != nil
    case .signedFloat: valid = signedDecimalFloat(text) != nil
    case .resolution:
      let parts = text.split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false)
      valid = parts.count == 2 && parts.allSatisfy { decimalInteger($0) != nil }
    case .byteRange:
      let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
      valid = parts.allSatisfy { decimalInteger($0) != nil }
    }
    return valid ? nil : "\(shown(text)) is not \(kind.name)"
  }

  /// A value as a finding shows it: at most 40 characters, so that a
  /// 5000-digit number does not fill the report.
  public static func shown(_ text: String) -> String {
    text.count <= 40 ? text : "\(text.prefix(37))… (\(text.count) characters)"
  }

  /// `value` rounded to a whole number for a message, in any range: plain
  /// digits when it fits in an Int, else Swift's own notation ("1e+300", "inf").
  public static func whole(_ value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> String {
    let rounded = value.rounded(rule)
    guard rounded.isFinite, abs(rounded) < 9.0e18 else { return "\(rounded)" }
    return String(Int(rounded))
  }
}
