/// Reads one JSON object field by field. Every accessor records the key as used;
/// `finish()` rejects whatever was not used, so unknown or misspelt fields
/// never pass silently.
struct FieldReader {
  let file: String
  let path: String
  private let fields: [String: JSONValue]
  /// Few keys per object: a list is cheaper than hashing each into a set.
  private var used: [String] = []

  init(_ value: JSONValue, file: String, path: String) throws {
    guard case .object(let fields) = value else {
      throw ProfileError(file: file, path: path, message: "expected an object, found \(value.typeName)")
    }
    // The schema allows no null anywhere: a templated profile that writes null
    // for a value it lacks must fail, not get the default (method null would publish in the clear).
    if fields.values.contains(.null), let key = fields.keys.sorted().first(where: { fields[$0] == .null }) {
      throw ProfileError(
        file: file, path: "\(path).\(key)",
        message: "is null, which no field takes (leave an optional field out to get its default)")
    }
    self.file = file
    self.path = path
    self.fields = fields
  }

  func error(_ key: String, _ message: String) -> ProfileError {
    ProfileError(file: file, path: childPath(key), message: message)
  }

  func childPath(_ key: String) -> String { "\(path).\(key)" }

  mutating func value(_ key: String) -> JSONValue? {
    if !used.contains(key) { used.append(key) }
    return fields[key]
  }

  mutating func string(_ key: String) throws -> String? {
    guard let v = value(key) else { return nil }
    guard case .string(let s) = v else { throw error(key, "expected a string, found \(v.typeName)") }
    return s
  }

  /// A string the playlist writes as a quoted-string attribute (`NAME="…"`):
  /// not empty, and nothing that would end or break the attribute.
  mutating func quotedString(_ key: String) throws -> String? {
    guard let s = try string(key) else { return nil }
    guard !s.isEmpty else { throw error(key, "must not be empty") }
    if let bad = QuotedString.forbiddenCharacter(in: s) {
      throw error(key, "contains \(QuotedString.describe(bad)), which a playlist's quoted string cannot hold")
    }
    return s
  }

  mutating func bool(_ key: String) throws -> Bool? {
    guard let v = value(key) else { return nil }
    guard case .bool(let b) = v else { throw error(key, "expected true or false, found \(v.typeName)") }
    return b
  }

  mutating func number(_ key: String) throws -> Double? {
    guard let v = value(key) else { return nil }
    guard case .number(let n) = v, n.isFinite else { throw error(key, "expected a number, found \(v.typeName)") }
    return n
  }

  /// A whole number in `range`.
  mutating func integer(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
    guard let n = try number(key) else { return nil }
    guard n.rounded() == n, n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
      throw error(
        key, "expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(formatNumber(n))")
    }
    return Int(n)
  }

  mutating func required<T>(_ key: String, _ read: (inout FieldReader, String) throws -> T?) throws -> T {
    guard let v = try read(&self, key) else {
      if let near = fields.keys.sorted().first(where: { $0 != key && isNearMiss($0, key) }) {
        throw error(key, "is required (the object has \"\(near)\": misspelt?)")
      }
      throw error(key, "is required")
    }
    return v
  }

  /// Names one edit apart (a letter dropped, added, changed or two swapped).
  private func isNearMiss(_ a: String, _ b: String) -> Bool {
    let x = Array(a), y = Array(b)
    if x.count == y.count {
      let diffs = x.indices.filter { x[$0] != y[$0] }
      return diffs.count == 1
        || (diffs.count == 2 && diffs[1] == diffs[0] + 1 && x[diffs[0]] == y[diffs[1]] && x[diffs[1]] == y[diffs[0]])
    }
    let (short, long) = x.count < y.count ? (x, y) : (y, x)
    guard long.count == short.count + 1 else { return false }
    var i = 0
    while i < short.count, short[i] == long[i] { i += 1 }
    return short[i...] == long[(i + 1)...]
  }

  mutating func oneOf(_ key: String, _ allowed: [String]) throws -> String? {
    guard let s = try string(key) else { return nil }
    guard allowed.contains(s) else {
      throw error(key, "must be one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")), found \"\(s)\"")
    }
    return s
  }

  mutating func array(_ key: String) throws -> [JSONValue]? {
    guard let v = value(key) else { return nil }
    guard case .array(let a) = v else { throw error(key, "expected an array, found \(v.typeName)") }
    return a
  }

  mutating func object(_ key: String) throws -> FieldReader? {
    guard let v = value(key) else { return nil }
    return try FieldReader(v, file: file, path: childPath(key))
  }

  /// True when the object has a value for `key`.
  func wasGiven(_ key: String) -> Bool { fields[key] != nil }

  func finish() throws {
    if let unknown = fields.keys.filter({ !used.contains($0) }).sorted().first {
      throw error(unknown, "unknown field")
    }
  }
}

func formatNumber(_ n: Double) -> String {
  n.rounded() == n && abs(n) < 1e15 ? String(Int(n)) : String(n)
}
