import Foundation

/// A parsed JSON document that remembers nothing but its values, so the profile
/// reader can walk it by hand and name the exact path of anything it rejects.
/// (`JSONDecoder` silently ignores unknown keys and reports paths poorly.)
public indirect enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// Reads strict JSON (RFC 8259; see `JSONParser`) with no side effects; an
  /// error names the line, the column and the cause.
  public static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
    try JSONParser.parse(Array(data))
  }

  /// The JSON type name used in error messages.
  var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
