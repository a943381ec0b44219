import Foundation

/// A deliberately simple m3u8 reader for the tests: tags with their attribute
/// lists, and segment URIs with the EXTINF and key tag in force.
struct PlaylistReader {
  struct Segment {
    var uri: String
    var duration: Double
    var keyAttributes: [String: String]?
  }

  let lines: [String]

  init(contentsOf url: URL) throws {
    lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n").filter { !$0.isEmpty }
  }

  /// Values of every `#TAG:` line.
  func values(of tag: String) -> [String] {
    lines.filter { $0.hasPrefix(tag + ":") }.map { String($0.dropFirst(tag.count + 1)) }
  }

  var segments: [Segment] {
    var result: [Segment] = []
    var duration: Double?
    var key: [String: String]?
    for line in lines {
      if line.hasPrefix("#EXTINF:") {
        duration = Double(line.dropFirst(8).split(separator: ",", omittingEmptySubsequences: false)[0])
      } else if line.hasPrefix("#EXT-X-KEY:") {
        let attributes = Self.attributes(String(line.dropFirst(11)))
        key = attributes["METHOD"] == "NONE" ? nil : attributes
      } else if !line.hasPrefix("#"), let d = duration {
        result.append(Segment(uri: line, duration: d, keyAttributes: key))
        duration = nil
      }
    }
    return result
  }

  /// Variant URI → attributes of its EXT-X-STREAM-INF.
  var variants: [(uri: String, attributes: [String: String])] {
    var result: [(String, [String: String])] = []
    for (i, line) in lines.enumerated() where line.hasPrefix("#EXT-X-STREAM-INF:") && i + 1 < lines.count {
      result.append((lines[i + 1], Self.attributes(String(line.dropFirst(18)))))
    }
    return result
  }

  /// Splits an attribute list, honouring quoted strings; quotes are removed.
  static func attributes(_ list: String) -> [String: String] {
    var result: [String: String] = [:]
    var name = ""
    var value = ""
    var inName = true
    var quoted = false
    func flush() {
      if !name.isEmpty { result[name] = value }
      name = ""
      value = ""
      inName = true
    }
    for c in list {
      if inName {
        if c == "=" { inName = false } else { name.append(c) }
      } else if c == "\"" {
        quoted.toggle()
      } else if c == ",", !quoted {
        flush()
      } else {
        value.append(c)
      }
    }
    flush()
    return result
  }
}
