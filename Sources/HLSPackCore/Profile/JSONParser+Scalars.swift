/// Strings and numbers (RFC 8259 §6, §7), checked byte by byte.
extension JSONParser {
  /// At the opening quote; returns the decoded string, past its closing quote.
  mutating func string() throws(JSONSyntaxError) -> String {
    let start = position
    position.offset += 1
    var runStart = position.offset
    // Only a string with escapes is copied piece by piece.
    var decoded: [UInt8]?
    while true {
      guard let byte = peek else {
        throw failure("the file ends inside the string that starts at line \(start.line), column \(column(of: start))")
      }
      switch byte {
      case UInt8(ascii: "\""):
        let run = bytes[runStart..<position.offset]
        position.offset += 1
        guard var text = decoded else { return String(decoding: run, as: UTF8.self) }
        text += run
        return String(decoding: text, as: UTF8.self)
      case UInt8(ascii: "\\"):
        var text = decoded ?? []
        text += bytes[runStart..<position.offset]
        try escape(into: &text)
        decoded = text
        runStart = position.offset
      case 0..<0x20:
        let shown = byte == UInt8(ascii: "\n") ? "a line break" : "the control character U+\(hex4(UInt32(byte)))"
        throw failure("\(shown) in a string (write it as an escape such as \\n or \\u\(hex4(UInt32(byte))))")
      case 0x80...:
        guard let length = utf8SequenceLength(at: position.offset) else {
          throw failure("bytes that are not UTF-8 in a string (a JSON file is UTF-8 text)")
        }
        position.offset += length
      default:
        position.offset += 1
      }
    }
  }

  private static let simpleEscapes: [UInt8: UInt8] = [
    UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
    UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
  ]

  /// At a backslash: appends the escaped character's UTF-8 bytes.
  private mutating func escape(into text: inout [UInt8]) throws(JSONSyntaxError) {
    let start = position
    position.offset += 1
    guard let letter = peek else { throw failure("the file ends inside an escape") }
    if let byte = Self.simpleEscapes[letter] {
      position.offset += 1
      text.append(byte)
      return
    }
    guard letter == UInt8(ascii: "u") else {
      throw failure(
        at: start,
        "\(describeEscape(from: start.offset)) is not a JSON escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
    }
    var unit = try hexUnit(from: start)
    if (0xD800...0xDBFF).contains(unit), bytes[position.offset...].starts(with: Array("\\u".utf8)) {
      // A UTF-16 surrogate pair (RFC 8259 §7) makes one character beyond U+FFFF.
      let second = position
      position.offset += 1
      let low = try hexUnit(from: second)
      if (0xDC00...0xDFFF).contains(low) {
        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
      } else {
        position.offset -= 6
      }
    }
    guard let scalar = Unicode.Scalar(unit) else {
      throw failure(at: start, "\\u\(hex4(unit)) is half of a UTF-16 surrogate pair without its other half")
    }
    Unicode.UTF8.encode(scalar) { text.append($0) }
  }

  /// At the backslash of `\uXXXX`: the four hex digits' value, past them.
  private mutating func hexUnit(from start: Position) throws(JSONSyntaxError) -> UInt32 {
    let digits = position.offset + 1..<position.offset + 5
    guard digits.upperBound <= bytes.count,
      let unit = UInt32(String(decoding: bytes[digits], as: UTF8.self), radix: 16),
      bytes[digits].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
    else {
      throw failure(at: start, "\(describeEscape(from: start.offset)) is not a JSON escape (\\u takes four hex digits)")
    }
    position.offset = digits.upperBound
    return unit
  }

  private func describeEscape(from offset: Int) -> String {
    let end = bytes[offset...].prefix(6).firstIndex { $0 == UInt8(ascii: "\"") || $0 < 0x20 || $0 >= 0x80 }
    return "'\(String(decoding: bytes[offset..<(end ?? min(bytes.count, offset + 6))], as: UTF8.self))'"
  }

  /// The length of the well-formed UTF-8 sequence at `offset` (Unicode 15,
  /// Table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF), or nil.
  func utf8SequenceLength(at offset: Int) -> Int? {
    let lead = bytes[offset]
    let (length, second): (Int, ClosedRange<UInt8>) =
      switch lead {
      case 0x00...0x7F: (1, 0x80...0xBF)
      case 0xC2...0xDF: (2, 0x80...0xBF)
      case 0xE0: (3, 0xA0...0xBF)
      case 0xED: (3, 0x80...0x9F)
      case 0xE1...0xEF: (3, 0x80...0xBF)
      case 0xF0: (4, 0x90...0xBF)
      case 0xF1...0xF3: (4, 0x80...0xBF)
      case 0xF4: (4, 0x80...0x8F)
      default: (0, 0x80...0xBF)
      }
    guard length > 0, offset + length <= bytes.count else { return nil }
    guard length == 1 || second.contains(bytes[offset + 1]) else { return nil }
    guard bytes[offset + 1..<offset + length].dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }) else { return nil }
    return length
  }

  /// At a minus sign or a digit: the number, past it. Integers up to 15
  /// digits are exact without a text conversion; the rest goes through the
  /// standard library's correctly rounded conversion.
  mutating func number() throws(JSONSyntaxError) -> Double {
    let start = position
    func isDigit(_ b: UInt8?) -> Bool { b.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false }
    if peek == UInt8(ascii: "-") { position.offset += 1 }
    guard isDigit(peek) else { throw unexpected("a digit after '-'") }
    var whole = 0
    var digits = 0
    if peek == UInt8(ascii: "0") {
      position.offset += 1
      if isDigit(peek) { throw failure(at: start, "a number with a leading zero (JSON has no octal: write 7, not 07)") }
    }
    while let byte = peek, isDigit(byte) {
      whole = digits < 18 ? whole * 10 + Int(byte - UInt8(ascii: "0")) : whole
      digits += 1
      position.offset += 1
    }
    var isInteger = true
    if peek == UInt8(ascii: ".") {
      position.offset += 1
      guard isDigit(peek) else { throw unexpected("a digit after the decimal point") }
      while isDigit(peek) { position.offset += 1 }
      isInteger = false
    }
    if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
      position.offset += 1
      if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position.offset += 1 }
      guard isDigit(peek) else { throw unexpected("a digit in the exponent") }
      while isDigit(peek) { position.offset += 1 }
      isInteger = false
    }
    let negative = bytes[start.offset] == UInt8(ascii: "-")
    if isInteger, digits <= 15 { return negative ? -Double(whole) : Double(whole) }
    let text = String(decoding: bytes[start.offset..<position.offset], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      let shown = text.count > 40 ? "\(text.prefix(40))…" : text
      throw failure(at: start, "the number \(shown) is out of range (a double holds up to about 1.8e308)")
    }
    return value
  }
}
