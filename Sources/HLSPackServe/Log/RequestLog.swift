import Foundation
import Synchronization

/// One JSON line per request, to a file or standard output, written when the
/// response has ended (so that the byte count and duration are what the client got).
final class RequestLog: Sendable {
  private struct Sink {
    var handle: FileHandle
    let clock = ISO8601DateFormatter()
  }
  private let sink: Mutex<Sink?>
  let showsSecrets: Bool
  let isEnabled: Bool

  /// `destination` is a file path (appended to), `-` for standard output, or nil for no log.
  init(destination: String?, showsSecrets: Bool) throws {
    self.showsSecrets = showsSecrets
    isEnabled = destination != nil
    guard let destination else {
      sink = Mutex(nil)
      return
    }
    let handle: FileHandle
    if destination == "-" {
      handle = FileHandle.standardOutput
    } else {
      if !FileManager.default.fileExists(atPath: destination) {
        guard FileManager.default.createFile(atPath: destination, contents: nil) else {
          throw ServeError.logUnwritable(path: destination, reason: "cannot create the file")
        }
      }
      guard let opened = FileHandle(forWritingAtPath: destination) else {
        throw ServeError.logUnwritable(path: destination, reason: "cannot open the file for writing")
      }
      _ = try? opened.seekToEnd()
      handle = opened
    }
    let sink = Sink(handle: handle)
    sink.clock.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    self.sink = Mutex(sink)
  }

  func write(_ entry: RequestLogEntry) {
    sink.withLock { sink in
      guard let sink else { return }
      var object = entry.jsonObject(showingSecrets: showsSecrets)
      object["time"] = sink.clock.string(from: entry.start)
      guard
        var line = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
      else { return }
      line.append(0x0A)
      sink.handle.write(line)
    }
  }
}

/// What one request asked for and what it got.
struct RequestLogEntry: Sendable {
  var start: Date
  var scheme: String
  var method: String
  var path: String
  var query: String?
  var target: RequestTarget?
  var range: String?
  /// nil when the connection was closed without a response.
  var status: Int?
  var bytes: Int
  var durationMs: Double
  var headers: [(name: String, value: String)]
  var rules: [String]
  var faults: [String]
  /// Why the origin gave no answer, in proxy mode.
  var upstreamError: String?

  func jsonObject(showingSecrets: Bool) -> [String: Any] {
    var object: [String: Any] = [
      "scheme": scheme, "method": method, "path": path, "kind": (target?.kind ?? .other).rawValue, "bytes": bytes,
      "duration_ms": (durationMs * 10).rounded() / 10, "status": status.map { $0 as Any } ?? NSNull(),
    ]
    if let query { object["query"] = showingSecrets ? query : SecretMask.query(query) }
    if let rendition = target?.rendition { object["rendition"] = rendition }
    if let segment = target?.segmentIndex { object["segment"] = segment }
    if let range { object["range"] = range }
    if !rules.isEmpty { object["rules"] = rules }
    if !faults.isEmpty { object["faults"] = faults }
    if let upstreamError { object["upstream_error"] = upstreamError }
    var headerObject: [String: String] = [:]
    for header in headers {
      let value = showingSecrets ? header.value : SecretMask.header(name: header.name, value: header.value)
      let name = header.name.lowercased()
      headerObject[name] = headerObject[name].map { "\($0), \(value)" } ?? value
    }
    object["headers"] = headerObject
    return object
  }
}
