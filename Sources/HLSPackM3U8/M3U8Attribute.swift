/// One attribute of an attribute list (RFC 8216bis §4.2), as written.
public struct M3U8Attribute: Sendable, Equatable {
  public var name: String
  /// The value without its quotes.
  public var value: String
  public var quoted: Bool
  /// Offsets of `value` (inside the quotes) in the bytes that were parsed.
  public var valueRange: Range<Int>

  /// Splits `NAME=VALUE,NAME="VALUE",…` at commas outside quoted strings. A
  /// quoted value may hold commas and `NAME=` look-alikes, which a plain
  /// search for `URI="` would wrongly match. Whitespace around names, which
  /// the grammar does not allow but some writers emit, is tolerated. An
  /// unterminated quoted string ends the list: nothing after it can be located safely.
  public static func list(_ list: ArraySlice<UInt8>) -> [M3U8Attribute] {
    var result: [M3U8Attribute] = []
    var i = list.startIndex
    let end = list.endIndex
    let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), comma = UInt8(ascii: ","), quote = UInt8(ascii: "\"")
    while i < end {
      while i < end, list[i] == space || list[i] == tab || list[i] == comma { i += 1 }
      let nameStart = i
      while i < end, list[i] != UInt8(ascii: "="), list[i] != comma { i += 1 }
      var nameEnd = i
      while nameEnd > nameStart, list[nameEnd - 1] == space || list[nameEnd - 1] == tab { nameEnd -= 1 }
      let name = String(decoding: list[nameStart..<nameEnd], as: UTF8.self)
      guard i < end, list[i] == UInt8(ascii: "=") else { continue }
      i += 1
      while i < end, list[i] == space || list[i] == tab { i += 1 }
      if i < end, list[i] == quote {
        let valueStart = i + 1
        guard let close = list[valueStart...].firstIndex(of: quote) else { return result }
        result.append(
          M3U8Attribute(
            name: name, value: String(decoding: list[valueStart..<close], as: UTF8.self), quoted: true,
            valueRange: valueStart..<close))
        i = close + 1
        // Skip anything up to the next separator.
        while i < end, list[i] != comma { i += 1 }
      } else {
        let valueStart = i
        while i < end, list[i] != comma { i += 1 }
        var valueEnd = i
        while valueEnd > valueStart, list[valueEnd - 1] == space || list[valueEnd - 1] == tab { valueEnd -= 1 }
        result.append(
          M3U8Attribute(
            name: name, value: String(decoding: list[valueStart..<valueEnd], as: UTF8.self), quoted: false,
            valueRange: valueStart..<valueEnd))
      }
    }
    return result
  }

  /// The attribute list of `text`, for readers that hold a `String`.
  public static func list(_ text: String) -> [M3U8Attribute] { list(Array(text.utf8)[...]) }
}
