import Foundation

/// What Foundation's JSON reader lets through but JSON (RFC 8259) does not,
/// checked on text that reader has accepted: a comma right before "}" or "]",
/// and a key twice in one object, where which value counts is up to the
/// reader (`"duration": 4, "duration": -1` would pass with one of them).
enum StrictJSON {
  struct Violation: Error {
    var path: String
    var message: String
  }

  private struct Container {
    var isObject: Bool
    var path: String
    var keys: Set<String> = []
    /// Objects: the next string is a key (at the start and after each comma).
    var expectsKey = true
    var key = ""
    var index = 0
  }

  static func check(_ text: [UInt8]) throws(Violation) {
    var open: [Container] = []
    var line = 1
    var lineStart = 0
    var lastComma: (line: Int, column: Int)?
    func column(_ offset: Int) -> Int {
      // Characters, not bytes: UTF-8 continuation bytes do not count.
      text[lineStart..<offset].filter { $0 & 0xC0 != 0x80 }.count + 1
    }
    func childPath() -> String {
      guard let parent = open.last else { return "$" }
      return parent.isObject ? "\(parent.path).\(parent.key)" : "\(parent.path)[\(parent.index)]"
    }

    var i = 0
    while i < text.count {
      let byte = text[i]
      switch byte {
      case UInt8(ascii: "\""):
        var end = i + 1
        while end < text.count, text[end] != UInt8(ascii: "\"") { end += text[end] == UInt8(ascii: "\\") ? 2 : 1 }
        let literal = Data(text[i...min(end, text.count - 1)])
        if var object = open.last, object.isObject, object.expectsKey {
          let key = (try? JSONSerialization.jsonObject(with: literal, options: .fragmentsAllowed)) as? String
            ?? String(decoding: literal, as: UTF8.self)
          guard object.keys.insert(key).inserted else {
            throw Violation(
              path: "\(object.path).\(key)",
              message: "line \(line), column \(column(i)): duplicate key \"\(key)\" (JSON does not say which value counts)")
          }
          object.key = key
          object.expectsKey = false
          open[open.count - 1] = object
        }
        lastComma = nil
        i = end + 1
        continue
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        open.append(Container(isObject: byte == UInt8(ascii: "{"), path: childPath()))
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if let comma = lastComma {
          throw Violation(
            path: open.last?.path ?? "$",
            message: "line \(comma.line), column \(comma.column): a comma before \"\(Character(Unicode.Scalar(byte)))\" (trailing commas are not JSON)")
        }
        _ = open.popLast()
      case UInt8(ascii: ","):
        if let last = open.indices.last {
          if open[last].isObject { open[last].expectsKey = true } else { open[last].index += 1 }
        }
        lastComma = (line, column(i))
        i += 1
        continue
      case UInt8(ascii: "\n"):
        line += 1
        lineStart = i + 1
      default:
        break
      }
      if ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n")].contains(byte) { lastComma = nil }
      i += 1
    }
  }
}
