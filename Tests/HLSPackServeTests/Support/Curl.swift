import Foundation
import HLSPackTestSupport

/// What curl got: its exit code, the last response's status and headers, the body, and the transfer time.
struct CurlResult {
  var exitCode: Int32
  var status: Int
  /// Header names lowercased.
  var headers: [String: String]
  var body: Data
  var seconds: Double
  /// Seconds until the first body byte.
  var firstByteSeconds: Double
  var stderr: String

  var text: String { String(decoding: body, as: UTF8.self) }
}

enum Curl {
  /// Runs `curl -sS` with `arguments` before `url`.
  static func run(_ url: String, _ arguments: [String] = []) throws -> CurlResult {
    let folder = try ScratchFolder.make("curl")
    let headerFile = folder.appendingPathComponent("headers")
    let bodyFile = folder.appendingPathComponent("body")
    let run = try Command.run(
      "curl",
      [
        "-sS", "--max-time", "60", "-D", headerFile.path, "-o", bodyFile.path, "-w",
        "%{http_code} %{time_total} %{time_starttransfer}",
      ]
        + arguments + [url])
    let written = run.text.split(separator: " ")
    let headerText = (try? String(contentsOf: headerFile, encoding: .utf8)) ?? ""
    return CurlResult(
      exitCode: run.status, status: written.first.flatMap { Int($0) } ?? 0, headers: lastHeaders(headerText),
      body: (try? Data(contentsOf: bodyFile)) ?? Data(),
      seconds: written.dropFirst().first.flatMap { Double($0) } ?? 0,
      firstByteSeconds: written.last.flatMap { Double($0) } ?? 0, stderr: run.stderr)
  }

  private static func lastHeaders(_ text: String) -> [String: String] {
    let blocks = text.replacingOccurrences(of: "\r", with: "").components(separatedBy: "\n\n").filter { !$0.isEmpty }
    var headers: [String: String] = [:]
    for line in (blocks.last ?? "").split(separator: "\n").dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      headers[line[..<colon].lowercased()] = value
    }
    return headers
  }
}
