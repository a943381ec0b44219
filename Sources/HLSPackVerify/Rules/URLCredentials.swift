import HLSPackCore

/// The user name and password of a URL (RFC 3986 §3.2.1, deprecated there
/// for passwords) are never printed: a report or an error message is copied
/// into tickets and logs.
public enum URLCredentials {
  /// `text` with the userinfo of every `scheme://userinfo@host` in it replaced by "***".
  public static func masked(_ text: String) -> String {
    guard text.contains("@"), text.contains("://") else { return text }
    var result = ""
    var rest = Substring(text)
    while let separator = rest.range(of: "://") {
      result += rest[..<separator.upperBound]
      rest = rest[separator.upperBound...]
      // The authority ends at the first "/", "?", "#" or whitespace; its userinfo at its last "@".
      let authorityEnd = rest.firstIndex { "/?#".contains($0) || $0.isWhitespace || $0 == "\"" } ?? rest.endIndex
      if let at = rest[..<authorityEnd].lastIndex(of: "@") {
        result += "***"
        rest = rest[at...]
      }
    }
    return result + rest
  }
}
