import Foundation
import HLSPackTestSupport

/// A real `hlspack serve` on 127.0.0.1 and a free port, with its request log
/// in a file; stopped with SIGTERM when the test lets go of it.
final class ServerProcess {
  let process = Process()
  let port: Int
  /// The HTTPS port and the local authority's certificate, when started with `--tls`.
  var tlsPort: Int?
  var authority: String?
  let logFile: URL
  private let output = Pipe()
  private let errorFile: URL

  /// Starts `hlspack serve folder --port 0 --log FILE` plus `arguments`, and waits for its
  /// "listening" lines (two with `--tls`). No folder: proxy mode, with `--upstream` in `arguments`.
  /// `log` replaces the log file (`-` for standard output). `fileLimit`: started by a shell
  /// that lowers the open-file limit (`ulimit -n`) first.
  init(folder: URL?, arguments: [String] = [], log: String? = nil, fileLimit: Int? = nil) throws {
    let scratch = try ScratchFolder.make("server")
    logFile = scratch.appendingPathComponent("requests.jsonl")
    errorFile = scratch.appendingPathComponent("stderr.txt")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    let serve =
      ["serve"] + (folder.map { [$0.path] } ?? []) + ["--port", "0", "--log", log ?? logFile.path] + arguments
    if let fileLimit {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\"", try Self.executable()] + serve
    } else {
      process.executableURL = URL(fileURLWithPath: try Self.executable())
      process.arguments = serve
    }
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: errorFile)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    var ports: [String: Int] = [:]
    let lines = try Self.lines(of: output.fileHandleForReading, count: arguments.contains("--tls") ? 2 : 1)
    for line in lines {
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        object["event"] as? String == "listening", let scheme = object["scheme"] as? String,
        let port = object["port"] as? Int
      else { continue }
      ports[scheme] = port
      if let authority = object["ca"] as? String { self.authority = authority }
    }
    guard let port = ports["http"] else {
      process.waitUntilExit()
      let messages = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
      throw FixtureError("hlspack serve did not start: \(lines) \(messages)")
    }
    self.port = port
    tlsPort = ports["https"]
  }

  deinit {
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
  }

  var base: String { "http://127.0.0.1:\(port)" }

  /// Stops reading the server's standard output, as `hlspack serve --log - | head -1` does.
  func closeStandardOutput() throws { try output.fileHandleForReading.close() }
  var stderr: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

  /// Sends SIGTERM and returns the exit status.
  func stop() -> Int32 {
    process.terminate()
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// The request log's entries so far; the server writes each when its response has ended.
  func log() throws -> [[String: Any]] {
    let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    return try text.split(separator: "\n").map { line in
      guard let entry = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        throw FixtureError("not a JSON object: \(line)")
      }
      return entry
    }
  }

  /// The log's entries for `path`, waiting up to 2 s for the count to reach `atLeast`.
  func entries(path: String, atLeast count: Int = 1) throws -> [[String: Any]] {
    var found: [[String: Any]] = []
    for _ in 0..<40 {
      found = try log().filter { $0["path"] as? String == path }
      if found.count >= count { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return found
  }

  /// The first `count` lines, or fewer if the process ends first.
  private static func lines(of handle: FileHandle, count: Int) throws -> [String] {
    var bytes = Data()
    while bytes.filter({ $0 == 0x0A }).count < count {
      let chunk = handle.availableData
      if chunk.isEmpty { break }
      bytes.append(chunk)
    }
    return String(decoding: bytes, as: UTF8.self).split(separator: "\n").prefix(count).map(String.init)
  }

  static func executable() throws -> String { try Command.builtHlspack() }
}
