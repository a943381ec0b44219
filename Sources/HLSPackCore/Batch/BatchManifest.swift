import Foundation

/// One asset of a catalog: a line of a batch manifest, its paths resolved
/// against the manifest's folder.
public struct ManifestEntry: Sendable, Equatable {
  /// The line the entry starts on (CSV: its record's first line).
  public var line: Int
  public var input: URL
  /// The output folder's name.
  public var asset: String
  /// This entry's own profile; nil for the run's `--profile`.
  public var profile: URL?
  public var overrides: ProfileOverrides
}

/// A manifest that cannot be used, naming the file, the line and the field.
public struct ManifestError: Error, CustomStringConvertible, Equatable {
  public var file: String
  public var line: Int?
  public var field: String?
  public var message: String

  public init(file: String, line: Int?, field: String?, message: String) {
    self.file = file
    self.line = line
    self.field = field
    self.message = message
  }

  public var description: String {
    [file + (line.map { ":\($0)" } ?? ""), field, message].compactMap { $0 }.joined(separator: ": ")
  }
}

/// Reads a batch manifest: JSON Lines (`.jsonl`, `.ndjson`: one object per
/// line) or CSV (`.csv`: a header row, RFC 4180 quoting), chosen by extension.
public enum BatchManifest {
  static let pathFields: Set<String> = ["input", "profile", "key_file"]
  static let textFields: Set<String> = ["asset", "key_hex", "key_env", "key_id", "key_uri", "seed"]

  public static func load(contentsOf url: URL) throws -> [ManifestEntry] {
    let file = url.path
    let bytes: [UInt8]
    do {
      bytes = try SmallFile.read(file, limit: 256 << 20)
    } catch {
      throw ManifestError(file: file, line: nil, field: nil, message: "cannot read the file \(error.reason)")
    }
    return try entries(bytes, file: file, type: url.pathExtension, folder: url.deletingLastPathComponent())
  }

  /// The entries of a manifest's bytes; `type` is its file name extension and
  /// `folder` the folder its relative paths resolve against.
  public static func entries(_ bytes: [UInt8], file: String, type: String, folder: URL) throws -> [ManifestEntry] {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw ManifestError(file: file, line: nil, field: nil, message: "is not UTF-8 text")
    }
    let rows: [(line: Int, fields: [String: ManifestValue])]
    switch type.lowercased() {
    case "jsonl", "ndjson": rows = try jsonLines(text, file: file)
    case "csv": rows = try csvRows(text, file: file)
    default:
      throw ManifestError(
        file: file, line: nil, field: nil,
        message: "unknown manifest type \".\(type)\": name it .jsonl (JSON Lines) or .csv")
    }
    guard !rows.isEmpty else { throw ManifestError(file: file, line: nil, field: nil, message: "lists no asset") }
    var seen: [[UInt8]: Int] = [:]
    return try rows.map { row in
      let entry = try entry(row.fields, line: row.line, file: file, folder: folder)
      let key = Array(entry.asset.utf8)
      if let first = seen[key] {
        throw ManifestError(
          file: file, line: row.line, field: entry.asset == row.fields["asset"]?.text ? "asset" : "input",
          message: "asset \"\(entry.asset)\" is already made by line \(first)")
      }
      seen[key] = row.line
      return entry
    }
  }

  /// What a manifest cell holds: text, or (JSON Lines) subtitles by track id.
  enum ManifestValue: Equatable {
    case text(String)
    case byID([String: String])

    var text: String? { if case .text(let t) = self { t } else { nil } }
  }

  private static func jsonLines(_ text: String, file: String) throws -> [(line: Int, fields: [String: ManifestValue])] {
    var rows: [(line: Int, fields: [String: ManifestValue])] = []
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = index + 1
      let content = raw.hasSuffix("\r") ? raw.dropLast() : raw
      guard !content.allSatisfy({ $0 == " " || $0 == "\t" }) else { continue }
      let value: JSONValue
      do {
        value = try JSONValue.parse(Data(content.utf8))
      } catch {
        throw ManifestError(
          file: file, line: line, field: nil, message: "not a JSON object (column \(error.column): \(error.message))")
      }
      guard case .object(let members) = value else {
        throw ManifestError(
          file: file, line: line, field: nil, message: "expected a JSON object, found \(value.typeName)")
      }
      var fields: [String: ManifestValue] = [:]
      for (name, member) in members.sorted(by: { $0.key < $1.key }) {
        switch member {
        case .string(let s): fields[name] = .text(s)
        case .object(let tracks) where name == "subtitles":
          var byID: [String: String] = [:]
          for (id, path) in tracks {
            guard case .string(let p) = path else {
              throw ManifestError(
                file: file, line: line, field: "subtitles.\(id)",
                message: "expected a path string, found \(path.typeName)")
            }
            byID[id] = p
          }
          fields[name] = .byID(byID)
        default:
          let expected = name == "subtitles" ? "a path string or an object of paths by subtitle id" : "a string"
          throw ManifestError(
            file: file, line: line, field: name, message: "expected \(expected), found \(member.typeName)")
        }
      }
      rows.append((line, fields))
    }
    return rows
  }

  private static func csvRows(_ text: String, file: String) throws -> [(line: Int, fields: [String: ManifestValue])] {
    let records: [CSVRecords.Record]
    do {
      records = try CSVRecords.parse(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
    } catch let failure as CSVRecords.Failure {
      throw ManifestError(file: file, line: failure.line, field: nil, message: failure.message)
    }
    guard let header = records.first else { return [] }
    for (i, name) in header.fields.enumerated() where header.fields[..<i].contains(name) {
      throw ManifestError(file: file, line: header.line, field: name, message: "the column is named twice")
    }
    guard header.fields.contains("input") else {
      throw ManifestError(
        file: file, line: header.line, field: "input", message: "the header row has no \"input\" column")
    }
    return try records.dropFirst().map { record in
      guard record.fields.count == header.fields.count else {
        throw ManifestError(
          file: file, line: record.line, field: nil,
          message: "has \(record.fields.count) fields; the header row has \(header.fields.count)")
      }
      var fields: [String: ManifestValue] = [:]
      var tracks: [String: String] = [:]
      for (name, value) in zip(header.fields, record.fields) where !value.isEmpty {
        if name.hasPrefix("subtitles.") {
          tracks[String(name.dropFirst("subtitles.".count))] = value
        } else {
          fields[name] = .text(value)
        }
      }
      if !tracks.isEmpty {
        if fields["subtitles"] != nil {
          throw ManifestError(
            file: file, line: record.line, field: "subtitles",
            message: "give either \"subtitles\" or \"subtitles.<id>\" columns")
        }
        fields["subtitles"] = .byID(tracks)
      }
      return (record.line, fields)
    }
  }

  private static func entry(_ fields: [String: ManifestValue], line: Int, file: String, folder: URL) throws
    -> ManifestEntry
  {
    func fail(_ field: String?, _ message: String) -> ManifestError {
      ManifestError(file: file, line: line, field: field, message: message)
    }
    for name in fields.keys.sorted()
    where !pathFields.contains(name) && !textFields.contains(name) && name != "subtitles" {
      throw fail(
        name,
        "unknown field (known: \((pathFields.union(textFields).union(["subtitles"])).sorted().joined(separator: ", ")))"
      )
    }
    func text(_ name: String) throws -> String? {
      guard let value = fields[name]?.text else { return nil }
      guard !value.isEmpty else { throw fail(name, "must not be empty") }
      return value
    }
    func path(_ name: String) throws -> URL? { try text(name).map { ProfileLoader.resolve($0, against: folder) } }

    guard let input = try path("input") else { throw fail("input", "is required") }
    let asset = try text("asset") ?? input.deletingPathExtension().lastPathComponent
    if let problem = assetNameProblem(asset) { throw fail(fields["asset"] == nil ? "input" : "asset", problem) }

    var overrides = ProfileOverrides()
    let keySources = ["key_hex", "key_env", "key_file"].filter { fields[$0] != nil }
    if keySources.count > 1 {
      throw fail(keySources[1], "only one key source may be given; \(keySources[0]) is set too")
    }
    if let field = keySources.first {
      let value = try text(field) ?? ""
      overrides.keySource = (field, field == "key_file" ? ProfileLoader.resolve(value, against: folder).path : value)
    }
    overrides.keyID = try text("key_id")
    overrides.keyURI = try text("key_uri")
    overrides.seed = try text("seed")
    switch fields["subtitles"] {
    case .text(let p)?:
      guard !p.isEmpty else { throw fail("subtitles", "must not be empty") }
      overrides.subtitles = .onlyTrack(ProfileLoader.resolve(p, against: folder).path)
    case .byID(let tracks)?:
      overrides.subtitles = .byID(tracks.mapValues { ProfileLoader.resolve($0, against: folder).path })
    case nil: break
    }
    return ManifestEntry(line: line, input: input, asset: asset, profile: try path("profile"), overrides: overrides)
  }

  /// Asset names follow the rules of names taken from an input's file stem:
  /// one visible folder name that leaves room for its staging folder's name.
  static func assetNameProblem(_ name: String) -> String? {
    if name.isEmpty || name == "." || name == ".." || name.hasPrefix(".") {
      return "\"\(name)\" cannot name an asset (the folder would be hidden)"
    }
    if name.contains("/") || name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      return "\"\(name)\" cannot name an asset: a folder name holds no '/' and no control character"
    }
    if name.utf8.count > AssetStaging.longestName {
      return "the asset name is \(name.utf8.count) bytes; at most \(AssetStaging.longestName)"
    }
    return nil
  }
}
