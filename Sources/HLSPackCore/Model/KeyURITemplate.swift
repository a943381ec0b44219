/// A key URI with placeholders, e.g. `myapp-key://{asset}/{rendition}/{period}`,
/// `skd://{key_id}`, `https://keys.example.com/{key_id}` or `{key_file}`.
/// Validated once, rendered for every key.
public struct KeyURITemplate: Sendable, Equatable {
  public struct Values: Sendable, Equatable {
    public var asset: String
    public var rendition: String
    /// 32 lower-case hex digits.
    public var keyID: String
    public var period: Int
    /// The key file's path relative to the playlist that refers to it.
    public var keyFile: String

    public init(asset: String, rendition: String, keyID: String, period: Int, keyFile: String) {
      self.asset = asset
      self.rendition = rendition
      self.keyID = keyID
      self.period = period
      self.keyFile = keyFile
    }
  }

  public static let placeholders = ["asset", "rendition", "key_id", "period", "key_file"]
  /// The default: a relative path to the key file, which desktop players can open.
  public static let keyFile = KeyURITemplate(unchecked: "{key_file}")

  public let text: String

  private init(unchecked text: String) { self.text = text }

  /// Fails with a message for the user when the template cannot give valid URIs.
  public init(_ text: String) throws(KeyURITemplateError) {
    guard !text.isEmpty else { throw KeyURITemplateError("must not be empty") }
    if let bad = QuotedString.forbiddenCharacter(in: text) {
      throw KeyURITemplateError("contains \(QuotedString.describe(bad)), which a playlist cannot quote")
    }
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{") {
      guard let close = rest[open...].firstIndex(of: "}") else { throw KeyURITemplateError("has an unclosed \"{\"") }
      let name = String(rest[rest.index(after: open)..<close])
      guard Self.placeholders.contains(name) else {
        throw KeyURITemplateError(
          "unknown placeholder {\(name)}; known: \(Self.placeholders.map { "{\($0)}" }.joined(separator: ", "))")
      }
      rest = rest[rest.index(after: close)...]
    }
    if rest.contains("}") { throw KeyURITemplateError("has a \"}\" without \"{\"") }
    try Self.checkURICharacters(text.replacing(/\{[a-z_]+\}/, with: ""))
    self.text = text
    if let scheme = schemeCandidate {
      // RFC 3986: a relative reference cannot have ':' in its first segment,
      // so the text before that ':' is a scheme, and a client reads it as one.
      if scheme.isEmpty { throw KeyURITemplateError("starts with ':': the URI scheme before it is empty") }
      if scheme.contains("{") {
        throw KeyURITemplateError(
          "\"\(scheme)\" before the first ':' would be read as a URI scheme; a placeholder cannot stand there")
      }
      guard Self.isValidScheme(scheme) else {
        throw KeyURITemplateError(
          "\"\(scheme)\" is not a valid URI scheme (RFC 3986: a letter, then letters, digits, '+', '-' or '.')")
      }
      if scheme.lowercased() == "data" {
        throw KeyURITemplateError("a data: URI would put the key bytes into the playlist; refused")
      }
    }
  }

  /// The scheme, lower-cased, when the template is an absolute URI.
  public var scheme: String? { schemeCandidate.map { $0.lowercased() } }

  /// Text before the first ':' when that ':' is in the first path segment.
  private var schemeCandidate: String? {
    guard let colon = text.firstIndex(of: ":") else { return nil }
    let head = text[..<colon]
    guard !head.contains(where: { "/?#".contains($0) }) else { return nil }
    return String(head)
  }

  public var usesKeyID: Bool { text.contains("{key_id}") }
  public var usesPeriod: Bool { text.contains("{period}") }
  public var usesRendition: Bool { text.contains("{rendition}") }

  /// Names come from file and folder names, which may hold anything: they
  /// are percent-encoded (RFC 3986, as RFC 6570 expands a simple variable;
  /// a rendition's '/' stays a path separator), so that a quote cannot end
  /// the playlist's URI="…" and a space or '#' cannot break the URI.
  public func render(_ values: Values) -> String {
    text
      .replacingOccurrences(of: "{asset}", with: Self.percentEncoded(values.asset, keeping: ""))
      .replacingOccurrences(of: "{rendition}", with: Self.percentEncoded(values.rendition, keeping: "/"))
      .replacingOccurrences(of: "{key_id}", with: values.keyID)
      .replacingOccurrences(of: "{period}", with: String(values.period))
      .replacingOccurrences(of: "{key_file}", with: values.keyFile)
  }

  /// RFC 3986 §2.3 and §2.2.
  private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
  private static let reserved = Set(":/?#[]@!$&'()*+,;=")

  /// The template's own text is written as it is, so it must already be a
  /// URI: unreserved and reserved characters, '%' only before two hex digits.
  private static func checkURICharacters(_ literal: String) throws(KeyURITemplateError) {
    let characters = Array(literal)
    for (i, c) in characters.enumerated() where !unreserved.contains(c) && !reserved.contains(c) {
      if c == "%", i + 2 < characters.count, characters[(i + 1)...(i + 2)].allSatisfy({ $0.isASCII && $0.isHexDigit }) {
        continue
      }
      let shown = c == " " ? "a space" : c == "%" ? "a '%' not followed by two hex digits" : "\"\(c)\""
      throw KeyURITemplateError("contains \(shown), which a URI cannot hold as it is; percent-encode it (RFC 3986)")
    }
  }

  /// Every byte of `text`'s UTF-8 but the unreserved characters (and `keeping`) as %XX.
  static func percentEncoded(_ text: String, keeping: String) -> String {
    var out = ""
    for byte in text.utf8 {
      let c = Character(Unicode.Scalar(byte))
      if byte < 0x80, unreserved.contains(c) || keeping.contains(c) {
        out.append(c)
      } else {
        out += String(format: "%%%02X", byte)
      }
    }
    return out
  }

  public static func isValidScheme(_ s: String) -> Bool {
    guard let first = s.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
    return s.unicodeScalars.allSatisfy { c in
      c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "+" || c == "-" || c == ".")
    }
  }
}

public struct KeyURITemplateError: Error, CustomStringConvertible, Equatable {
  public var description: String
  public init(_ description: String) { self.description = description }
}
