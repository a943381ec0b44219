import Foundation
import Testing

@testable import HLSPackCore

/// A profile that is not JSON names the line, the column and the cause, as
/// editors and compilers do, for every kind of syntax error.
@Suite struct ProfileJSONSyntaxTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var text: [UInt8]
    /// The JSON path of the object or array the error is in.
    var path: String
    /// "line L, column C: cause" (or its start).
    var message: String
    var testDescription: String { message }

    init(_ text: String, _ path: String, _ message: String) {
      self.init(Array(text.utf8), path, message)
    }

    init(_ text: [UInt8], _ path: String, _ message: String) {
      self.text = text
      self.path = path
      self.message = message
    }
  }

  static let segment = #""segment": {"duration": 6}"#
  static let rung = #"{"name": "a", "width": 640, "height": 360, "bitrate": 800000}"#

  static let cases: [Case] = [
    Case(
      "{\n  \"version\": 1\n  \(segment),\n  \"video\": [\(rung)]\n}", "$",
      "line 3, column 3: expected ',' or '}' after an object member, found '\"'"),
    Case(
      #"{"version": 1, "video": [\#(rung) \#(rung)]}"#, "$.video",
      "line 1, column 88: expected ',' or ']' after an array element, found '{'"),
    Case(
      #"{"version": 1, "segment": {"duration": 1e400}}"#, "$.segment.duration",
      "line 1, column 40: the number 1e400 is out of range"),
    Case(#"{"version": -1e309}"#, "$.version", "line 1, column 13: the number -1e309 is out of range"),
    Case(
      Array(#"{"version": 1, "output": "a"#.utf8) + [0xFF] + Array(#""}"#.utf8), "$.output",
      "line 1, column 28: bytes that are not UTF-8 in a string"),
    // An overlong "/" (C0 AF) and an encoded surrogate (ED A0 80) are not UTF-8 either.
    Case(
      Array(#"{"output": "x"#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8), "$.output",
      "line 1, column 14: bytes that are not UTF-8"),
    Case(
      Array(#"{"output": ""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8), "$.output",
      "line 1, column 13: bytes that are not UTF-8"),
    Case(
      [0x7B, 0xFE, 0x7D], "$",
      "line 1, column 2: expected a key (a string in double quotes), found a byte that is not UTF-8"),
    Case(
      String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
      "$" + String(repeating: "[0]", count: 512),
      "line 1, column 513: objects and arrays nested deeper than 512 levels"),
    Case(
      #"{"version": 1} x"#, "$", "line 1, column 16: expected the end of the file after the top-level value, found 'x'"),
    Case(
      "{\"version\": 1}\n}", "$", "line 2, column 1: expected the end of the file after the top-level value, found '}'"),
    // Truncated files.
    Case(
      "{\n  \"version\": 1,\n  \"segment\": {\"dur", "$.segment",
      "line 3, column 19: the file ends inside the string that starts at line 3, column 15"),
    Case(
      #"{"version": 1, "segment": {"duration": 6"#, "$.segment",
      "line 1, column 41: expected ',' or '}' after an object member, found the end of the file"),
    Case(
      #"{"version": 1,"#, "$",
      "line 1, column 15: expected a key (a string in double quotes), found the end of the file"),
    Case(#"{"version": "#, "$.version", "line 1, column 13: expected a value, found the end of the file"),
    Case("", "$", "line 1, column 1: expected a value, found the end of the file"),
    Case("  \n", "$", "line 2, column 1: expected a value, found the end of the file"),
    // What other formats and lenient readers allow.
    Case(
      "{\n  // the ladder\n}", "$",
      "line 2, column 3: expected a key (a string in double quotes), found a comment (JSON has none)"),
    Case("{'version': 1}", "$", "line 1, column 2: expected a key (a string in double quotes), found '''"),
    Case("{version: 1}", "$", "line 1, column 2: expected a key (a string in double quotes), found 'version'"),
    Case(#"{"version" 1}"#, "$", "line 1, column 12: expected ':' after the key, found '1'"),
    Case(#"{"version": True}"#, "$.version", "line 1, column 13: expected a value, found 'True'"),
    Case(#"{"segment": {"duration": NaN}}"#, "$.segment.duration", "line 1, column 26: expected a value, found 'NaN'"),
    Case(#"{"version": 01}"#, "$.version", "line 1, column 13: a number with a leading zero"),
    Case(#"{"version": 1.}"#, "$.version", "line 1, column 15: expected a digit after the decimal point, found '}'"),
    Case(#"{"version": 1e}"#, "$.version", "line 1, column 15: expected a digit in the exponent, found '}'"),
    Case(#"{"version": -x}"#, "$.version", "line 1, column 14: expected a digit after '-', found 'x'"),
    Case(#"{"version": +1}"#, "$.version", "line 1, column 13: expected a value, found '+1'"),
    Case("{\"output\": \"a\tb\"}", "$.output", "line 1, column 14: the control character U+0009 in a string"),
    Case("{\"output\": \"a\nb\"}", "$.output", "line 1, column 14: a line break in a string"),
    Case(#"{"output": "a\xb"}"#, "$.output", #"line 1, column 14: '\xb' is not a JSON escape"#),
    Case(
      #"{"output": "a\u12G4"}"#, "$.output",
      #"line 1, column 14: '\u12G4' is not a JSON escape (\u takes four hex digits)"#),
    Case(#"{"output": "\uD800x"}"#, "$.output", #"line 1, column 13: \uD800 is half of a UTF-16 surrogate pair"#),
    Case(#"{"output": "\uDC00"}"#, "$.output", #"line 1, column 13: \uDC00 is half of a UTF-16 surrogate pair"#),
    // Columns count characters: "é" is one column though two bytes.
    Case(#"{"name": "é" "x": 1}"#, "$", "line 1, column 14: expected ',' or '}' after an object member, found '\"'"),
    Case("{\"a\": 1,\n\n   }", "$", #"line 1, column 8: a comma before "}" (trailing commas are not JSON)"#),
  ]

  @Test(arguments: cases)
  func namesLineColumnAndCause(_ c: Case) {
    let error = #expect(throws: ProfileError.self) {
      try ProfileLoader.load(data: Data(c.text), file: "ladder.json", baseDirectory: URL(fileURLWithPath: "/profiles"))
    }
    #expect(error?.file == "ladder.json")
    #expect(error?.path == c.path, "\(String(describing: error))")
    #expect(error?.message.hasPrefix("not valid JSON: \(c.message)") == true, "\(String(describing: error))")
  }

  @Test func descriptionReadsAsOneLine() {
    let error = #expect(throws: ProfileError.self) {
      try ProfileLoader.load(
        data: Data("{\n  \"version\": 1\n  \"segment\": {}\n}".utf8), file: "ladder.json",
        baseDirectory: URL(fileURLWithPath: "/"))
    }
    #expect(
      error?.description
        == #"ladder.json: $: not valid JSON: line 3, column 3: expected ',' or '}' after an object member, found '"'"#)
  }

  /// A byte order mark is not part of the text (RFC 8259 §8.1 lets readers ignore it).
  @Test func byteOrderMarkIsIgnored() throws {
    let text = [0xEF, 0xBB, 0xBF] + Array(#"{"version": 1, \#(Self.segment), "video": [\#(Self.rung)]}"#.utf8)
    let profile = try ProfileLoader.load(
      data: Data(text), file: "ladder.json", baseDirectory: URL(fileURLWithPath: "/"))
    #expect(profile.video.map(\.name) == ["a"])
  }
}
