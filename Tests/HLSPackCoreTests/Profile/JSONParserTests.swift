import Foundation
import Testing

@testable import HLSPackCore

/// What the profile's JSON reader makes of valid JSON (RFC 8259): the same
/// values any conforming reader gives.
@Suite struct JSONParserTests {
  func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

  @Test func readsEveryKindOfValue() throws {
    let value = try parse(
      #" {"a": [1, -2.5, 0, -0, 1e3, 2.5E-3, 1e-400, 12345678901234567890], "b": {"c": true, "d": false, "e": null}, "f": [], "g": {}} "#
    )
    #expect(
      value
        == .object([
          "a": .array([
            .number(1), .number(-2.5), .number(0), .number(0), .number(1000), .number(0.0025), .number(0),
            .number(1.2345678901234567e19),
          ]),
          "b": .object(["c": .bool(true), "d": .bool(false), "e": .null]),
          "f": .array([]),
          "g": .object([:]),
        ]))
    #expect(try parse("\t\r\n 42 \n") == .number(42))
    #expect(try parse(#""top""#) == .string("top"))
  }

  @Test func decodesStringEscapesAndUTF8() throws {
    #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
    #expect(try parse(#""\u00e9\u00C9 é 日本 \ud83c\udfac 🎬""#) == .string("éÉ é 日本 🎬 🎬"))
    #expect(try parse(#""a\u0000b""#) == .string("a\u{0}b"))
    #expect(try parse(#""x,]\",}""#) == .string(#"x,]",}"#))
  }

  /// Repeated names in different objects, keys that look like values, and
  /// commas and brackets inside strings are all JSON.
  @Test func acceptsWhatLooksStrictButIsJSON() throws {
    let text = #"{"a": {"a": 1}, "b": ["a", "a", {"a": [1, 2]}], "": 1, "c": "x,]\",}", "é": 1, "d\"": 2}"#
    guard case .object(let fields) = try parse(text) else {
      Issue.record("not an object")
      return
    }
    #expect(fields.keys.sorted() == ["", "a", "b", "c", "d\"", "é"])
    let error = #expect(throws: JSONSyntaxError.self) { try parse(#"{"é": 1, "é": 2}"#) }
    #expect(
      error
        == JSONSyntaxError(
          line: 1, column: 10, path: "$.é", message: #"duplicate key "é" (JSON does not say which value counts)"#))
  }

  @Test func nestingUpToTheLimitIsRead() throws {
    let depth = JSONParser.maximumDepth
    var value = try parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
    var levels = 0
    while case .array(let inner) = value {
      levels += 1
      value = inner.first ?? .null
    }
    #expect(levels == depth)
  }
}
