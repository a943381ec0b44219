/// Text about files and assets made safe to print: every character a
/// terminal would not show as itself (see `ShellQuoting.isPrintable`) is
/// written as Swift writes it, `\u{1B}`, so a name can neither split a line
/// of output nor send an escape sequence to the terminal.
public enum TerminalText {
  public static func escaped(_ text: String) -> String {
    guard !text.unicodeScalars.allSatisfy(ShellQuoting.isPrintable) else { return text }
    var escaped = ""
    for scalar in text.unicodeScalars {
      if ShellQuoting.isPrintable(scalar) {
        escaped.unicodeScalars.append(scalar)
      } else {
        escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return escaped
  }
}
