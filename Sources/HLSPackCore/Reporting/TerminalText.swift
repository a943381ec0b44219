/// Text about files and assets made safe to print: every character a
/// terminal would not show as itself (see `ShellQuoting.isPrintable`) is
/// written as Swift writes it, `\u{1B}`, so a name can neither split a line
/// of output nor send an escape sequence to the terminal.
public enum TerminalText {
  public static func escaped(_ text: String) -> String {
    replacingUnprintable(in: text) { "\\u{" + String($0.value, radix: 16, uppercase: true) + "}" }
  }

  /// JSON text with every such character inside its strings written as a
  /// JSON escape (`\u202E`), so the line reads the same to a parser and
  /// shows as itself in a terminal. JSONEncoder escapes only C0 controls.
  /// For compact JSON (no line breaks between tokens), as progress lines are.
  public static func jsonEscaped(_ json: String) -> String {
    replacingUnprintable(in: json) { scalar in
      String(scalar).utf16.map { "\\u" + hex4($0) }.joined()
    }
  }

  /// `text` with each scalar a terminal would not show as itself replaced by `escape(scalar)`.
  private static func replacingUnprintable(in text: String, with escape: (Unicode.Scalar) -> String) -> String {
    guard !text.unicodeScalars.allSatisfy(ShellQuoting.isPrintable) else { return text }
    var escaped = ""
    for scalar in text.unicodeScalars {
      if ShellQuoting.isPrintable(scalar) {
        escaped.unicodeScalars.append(scalar)
      } else {
        escaped += escape(scalar)
      }
    }
    return escaped
  }

  private static func hex4(_ unit: UInt16) -> String {
    let digits = String(unit, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - digits.count) + digits
  }
}
