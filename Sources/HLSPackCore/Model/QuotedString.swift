/// What the value of a quoted-string attribute (`NAME="…"`, `URI="…"`) can
/// hold: no double quote, CR or LF (RFC 8216bis §4.2), and, like any playlist
/// line, no other control character (RFC 8216bis §4.1, §4.2): C0, DEL, C1, and the
/// Unicode line and paragraph separators, which many readers split lines at.
public enum QuotedString {
  /// The first character `text` cannot hold in a quoted string; nil when it can be written as it is.
  public static func forbiddenCharacter(in text: String) -> Unicode.Scalar? {
    text.unicodeScalars.first {
      $0 == "\"" || $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029
    }
  }

  /// For messages: "a double quote", "a line break (U+000A)", "a control character (U+0009)".
  public static func describe(_ character: Unicode.Scalar) -> String {
    let code = String(character.value, radix: 16, uppercase: true)
    let unicode = "U+" + String(repeating: "0", count: max(0, 4 - code.count)) + code
    switch character {
    case "\"": return "a double quote"
    case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}": return "a line break (\(unicode))"
    default: return "a control character (\(unicode))"
    }
  }
}
