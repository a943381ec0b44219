/// A JSON text (RFC 8259) read in one pass, so its cost grows with its length
/// and every error carries the line, the column and what was wrong. Besides
/// the grammar it refuses what a lenient reader lets through: a comma before
/// "}" or "]", a key twice in one object (RFC 8259 §4 leaves which value counts
/// to the reader: `"duration": 4, "duration": -1` would pass with one of them),
/// a number no double holds (`1e400`), text that is not UTF-8 (§8.1), and
/// nesting deeper than `maximumDepth`, which keeps the recursion bounded.
struct JSONParser {
  static let maximumDepth = 512

  /// Where the reader stands; a line break only ever comes between tokens.
  struct Position {
    var offset: Int
    var line: Int
    var lineStart: Int
  }

  private enum PathComponent {
    case key(String)
    case index(Int)
  }

  let bytes: [UInt8]
  var position: Position
  private var path: [PathComponent] = []

  static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    var parser = JSONParser(bytes)
    let root = try parser.value(depth: 0)
    parser.skipWhitespace()
    guard parser.peek == nil else { throw parser.unexpected("the end of the file after the top-level value") }
    return root
  }

  private init(_ bytes: [UInt8]) {
    self.bytes = bytes
    // RFC 8259 §8.1 lets a reader ignore a byte order mark; some editors write one.
    let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    position = Position(offset: start, line: 1, lineStart: start)
  }

  var peek: UInt8? { position.offset < bytes.count ? bytes[position.offset] : nil }

  mutating func skipWhitespace() {
    while let byte = peek {
      switch byte {
      case UInt8(ascii: "\n"):
        position.line += 1
        position.lineStart = position.offset + 1
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
        break
      default:
        return
      }
      position.offset += 1
    }
  }

  private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    skipWhitespace()
    guard let byte = peek else { throw unexpected("a value") }
    switch byte {
    case UInt8(ascii: "{"): return try object(depth: depth + 1)
    case UInt8(ascii: "["): return try array(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    default: throw unexpected("a value")
    }
  }

  private mutating func literal(_ word: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
    let end = position.offset + word.utf8.count
    guard end <= bytes.count, bytes[position.offset..<end].elementsEqual(word.utf8) else { throw unexpected("a value") }
    position.offset = end
    return value
  }

  private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    try checkDepth(depth)
    position.offset += 1
    var fields: [String: JSONValue] = [:]
    skipWhitespace()
    if peek == UInt8(ascii: "}") {
      position.offset += 1
      return .object(fields)
    }
    while true {
      skipWhitespace()
      let keyStart = position
      guard peek == UInt8(ascii: "\"") else { throw unexpected("a key (a string in double quotes)") }
      let key = try string()
      guard fields[key] == nil else {
        path.append(.key(key))
        throw failure(at: keyStart, "duplicate key \"\(key)\" (JSON does not say which value counts)")
      }
      skipWhitespace()
      guard peek == UInt8(ascii: ":") else { throw unexpected("':' after the key") }
      position.offset += 1
      path.append(.key(key))
      fields[key] = try value(depth: depth)
      path.removeLast()
      if try endOfMembers(closing: "}", after: "an object member") {
        return .object(fields)
      }
    }
  }

  private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    try checkDepth(depth)
    position.offset += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if peek == UInt8(ascii: "]") {
      position.offset += 1
      return .array(elements)
    }
    while true {
      path.append(.index(elements.count))
      elements.append(try value(depth: depth))
      path.removeLast()
      if try endOfMembers(closing: "]", after: "an array element") {
        return .array(elements)
      }
    }
  }

  /// After a member: true at the closing bracket (consumed), false after a
  /// comma that another member follows.
  private mutating func endOfMembers(closing: Unicode.Scalar, after what: String) throws(JSONSyntaxError) -> Bool {
    skipWhitespace()
    switch peek {
    case UInt8(ascii: closing):
      position.offset += 1
      return true
    case UInt8(ascii: ","):
      let comma = position
      position.offset += 1
      skipWhitespace()
      if peek == UInt8(ascii: closing) {
        throw failure(at: comma, "a comma before \"\(closing)\" (trailing commas are not JSON)")
      }
      return false
    default:
      throw unexpected("',' or '\(closing)' after \(what)")
    }
  }

  private func checkDepth(_ depth: Int) throws(JSONSyntaxError) {
    guard depth <= Self.maximumDepth else {
      throw failure("objects and arrays nested deeper than \(Self.maximumDepth) levels")
    }
  }

  // MARK: Errors

  /// "expected X, found Y", Y being what stands at the current position.
  func unexpected(_ expected: String) -> JSONSyntaxError {
    failure("expected \(expected), found \(describeToken(at: position.offset))")
  }

  func failure(at where: Position? = nil, _ message: String) -> JSONSyntaxError {
    let at = `where` ?? position
    let pathText = path.reduce("$") { text, component in
      switch component {
      case .key(let key): "\(text).\(key)"
      case .index(let index): "\(text)[\(index)]"
      }
    }
    return JSONSyntaxError(line: at.line, column: column(of: at), path: pathText, message: message)
  }

  /// Characters, not bytes: UTF-8 continuation bytes do not count. Counted
  /// only for an error, so reading stays linear in the length of a line.
  func column(of at: Position) -> Int {
    bytes[at.lineStart..<min(at.offset, bytes.count)].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
  }

  /// What a reader of the file sees at `offset`: a word, a character, or why there is none.
  private func describeToken(at offset: Int) -> String {
    guard offset < bytes.count else { return "the end of the file" }
    let byte = bytes[offset]
    let next = offset + 1 < bytes.count ? bytes[offset + 1] : nil
    if byte == UInt8(ascii: "/"), next == UInt8(ascii: "/") || next == UInt8(ascii: "*") {
      return "a comment (JSON has none)"
    }
    if byte >= 0x80 {
      guard let length = utf8SequenceLength(at: offset) else { return "a byte that is not UTF-8" }
      return "'\(String(decoding: bytes[offset..<offset + length], as: UTF8.self))'"
    }
    func isWordByte(_ b: UInt8) -> Bool {
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b)
        || b == UInt8(ascii: "_") || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
    }
    if byte < 0x20 || byte == 0x7F { return "the control character U+\(hex4(UInt32(byte)))" }
    guard isWordByte(byte) else { return "'\(Character(Unicode.Scalar(byte)))'" }
    let end = bytes[offset...].prefix(24).firstIndex { !isWordByte($0) } ?? min(bytes.count, offset + 24)
    return "'\(String(decoding: bytes[offset..<end], as: UTF8.self))'"
  }
}

/// A JSON text that cannot be read: where, inside which value, and why.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
  public var line: Int
  /// In characters from 1, as editors count them.
  public var column: Int
  /// The JSON path of the object or array the error is in (`$` at the top level).
  public var path: String
  public var message: String

  public var description: String { "line \(line), column \(column): \(message)" }
}

func hex4(_ value: UInt32) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
