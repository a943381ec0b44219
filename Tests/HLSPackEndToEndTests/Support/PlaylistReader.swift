import Foundation
import HLSPackM3U8

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
    let bytes = Array(try Data(contentsOf: url))
    lines = M3U8Line.lines(of: bytes).map { String(decoding: bytes[$0.content], as: UTF8.self) }.filter { !$0.isEmpty }
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

  /// An attribute list read by the project's one tokenizer; quotes are removed.
  static func attributes(_ list: String) -> [String: String] {
    Dictionary(M3U8Attribute.list(list).map { ($0.name, $0.value) }) { _, last in last }
  }
}
