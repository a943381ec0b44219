/// Paths as GNU coreutils print them (`ls --quoting-style=shell-escape`):
/// unchanged when nothing in them needs quoting, else quoted so that a shell
/// reads back the same path. A newline in a name no longer splits a printed
/// line in two, and a control character (an escape sequence) never reaches
/// the terminal: it is written `$'\033'`. Unlike ls, format characters (a
/// right-to-left override, which would show a name's end reversed) are escaped too.
public enum ShellQuoting {
  public static func quote(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    if !scalars.isEmpty, scalars.indices.allSatisfy({ isPlain(scalars[$0], first: $0 == 0) }) { return text }
    // A single quote and nothing special inside double quotes: those read best.
    if scalars.allSatisfy(isPrintable), scalars.contains("'"),
      !scalars.contains(where: { "$`\\\"!".unicodeScalars.contains($0) })
    {
      return "\"\(text)\""
    }
    var quoted = "'"
    var open = true
    for scalar in scalars {
      if isPrintable(scalar) {
        if !open { quoted += "'" }
        open = true
        quoted += scalar == "'" ? #"'\''"# : String(scalar)
      } else {
        quoted += (open ? "'" : "") + "$'\(escaped(scalar))'"
        open = false
      }
    }
    return open ? quoted + "'" : quoted
  }

  /// Characters a shell reads as themselves anywhere in a word; `#` and `~`
  /// mean something only at its start.
  private static func isPlain(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
    guard isPrintable(scalar) else { return false }
    if first, scalar == "#" || scalar == "~" { return false }
    return !" !\"$&'()*;<=>?[\\^`|".unicodeScalars.contains(scalar)
  }

  /// What a terminal shows as itself: not a control (an escape sequence's
  /// ESC, a newline), a format character (a right-to-left override) or a
  /// line or paragraph separator.
  static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate, .privateUse: false
    default: true
    }
  }

  /// Inside `$'…'`: C's escapes where there is one, else each UTF-8 byte in octal.
  private static func escaped(_ scalar: Unicode.Scalar) -> String {
    let named: [Unicode.Scalar: String] = [
      "\u{7}": "a", "\u{8}": "b", "\t": "t", "\n": "n", "\u{B}": "v", "\u{C}": "f", "\r": "r",
    ]
    if let name = named[scalar] { return "\\" + name }
    return String(scalar).utf8.map { "\\" + String($0, radix: 8).leftPadded(to: 3) }.joined()
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
