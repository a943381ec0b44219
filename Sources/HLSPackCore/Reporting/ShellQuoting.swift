/// Paths as GNU coreutils print them (`ls --quoting-style=shell-escape`):
/// unchanged when nothing in them needs quoting, else quoted so that a shell
/// reads back the same path. A newline in a name no longer splits a printed
/// line in two, and a control character (an escape sequence) never reaches
/// the terminal: it is written `$'\033'`.
public enum ShellQuoting {
  public static func quote(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    if !scalars.isEmpty, scalars.indices.allSatisfy({ isPlain(scalars[$0], first: $0 == 0) }) { return text }
    // Only a single quote to protect: double quotes read best, as ls writes them.
    if scalars.allSatisfy(isPrintable), !scalars.contains(where: { "$`\\\"!".unicodeScalars.contains($0) }) {
      return "\"\(text)\""
    }
    var pieces: [String] = []
    var quoted = ""
    for scalar in scalars {
      if isPrintable(scalar) {
        quoted += scalar == "'" ? #"'\''"# : String(scalar)
        continue
      }
      if !quoted.isEmpty { pieces.append("'\(quoted)'") }
      quoted = ""
      pieces.append("$'\(escaped(scalar))'")
    }
    if !quoted.isEmpty || pieces.isEmpty { pieces.append("'\(quoted)'") }
    return pieces.joined()
  }

  /// Characters a shell reads as themselves anywhere in a word; `#` and `~`
  /// mean something only at its start.
  private static func isPlain(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
    guard isPrintable(scalar) else { return false }
    if first, scalar == "#" || scalar == "~" { return false }
    return !" !\"$&'()*;<=>?[\\^`|".unicodeScalars.contains(scalar)
  }

  private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate, .privateUse: false
    default: true
    }
  }

  /// Inside `$'…'`: C's escapes where there is one, else each UTF-8 byte in octal.
  private static func escaped(_ scalar: Unicode.Scalar) -> String {
    let named: [Unicode.Scalar: String] = ["\u{7}": "a", "\u{8}": "b", "\t": "t", "\n": "n", "\u{B}": "v", "\u{C}": "f", "\r": "r"]
    if let name = named[scalar] { return "\\" + name }
    return String(scalar).utf8.map { "\\" + String($0, radix: 8).leftPadded(to: 3) }.joined()
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
