import Foundation
import Glibc
import HLSPackCore
import Synchronization

/// One JSON line per request, to a file or standard output, written when the
/// response has ended (so that the byte count and duration are what the client got).
///
/// A log that stops taking lines (a full disk, an I/O error, a reader of
/// `--log -` that went away) is reported once on standard error and dropped:
/// the server is a fixture for players, and goes on serving them.
final class RequestLog: Sendable {
  private struct Sink {
    var handle: FileHandle
    let clock = ISO8601DateFormatter()
  }
  private let sink: Mutex<Sink?>
  private let destination: String
  let showsSecrets: Bool
  let isEnabled: Bool

  /// `destination` is a file path (appended to), `-` for standard output, or nil for no log.
  init(destination: String?, showsSecrets: Bool) throws {
    self.showsSecrets = showsSecrets
    isEnabled = destination != nil
    self.destination = destination == "-" ? "standard output" : destination ?? ""
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
    let failure: String? = sink.withLock { sink in
      guard let current = sink else { return nil }
      var object = entry.jsonObject(showingSecrets: showsSecrets)
      object["time"] = current.clock.string(from: entry.start)
      guard
        var line = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
      else { return nil }
      line.append(0x0A)
      guard let failure = FileDescriptor.writeAll(line, to: current.handle.fileDescriptor)?.reason else { return nil }
      sink = nil
      return failure
    }
    if let failure {
      let message =
        "hlspack serve: the request log (\(destination)) cannot be written: \(failure); serving goes on without it\n"
      StandardError.write(message)
    }
  }

  /// Writes every byte, or returns why it could not (the system's reason); never traps, unlike `FileHandle.write(_:)`.
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
