import Foundation
import HLSPackTestSupport

/// `python3 -m http.server` serving a folder on 127.0.0.1, on a port that was
/// free a moment before; stopped by `stop()`.
final class TestHTTPServer {
  let port: UInt16
  private let process = Process()

  var base: String { "http://127.0.0.1:\(port)" }

  /// `script`, when given, is a Python program run instead of http.server;
  /// it is passed the port and the folder.
  init(serving folder: URL, script: String? = nil) throws {
    port = try Self.freePort()
    process.executableURL = URL(fileURLWithPath: try Command.which("python3"))
    process.arguments =
      script.map { ["-c", $0, String(port), folder.path] }
      ?? ["-m", "http.server", "--bind", "127.0.0.1", "--directory", folder.path, String(port)]
    try start()
  }

  /// `hlspack serve`, which answers range requests with 206 (python's
  /// http.server sends the whole file).
  init(hlspackServing folder: URL) throws {
    port = try Self.freePort()
    process.executableURL = URL(fileURLWithPath: try Command.builtHlspack())
    process.arguments = ["serve", folder.path, "--port", String(port)]
    try start()
  }

  private func start() throws {
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    try waitUntilListening()
  }

  /// SIGKILL: the server inherits the test runner's signal mask, which blocks SIGTERM.
  func stop() {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  deinit { stop() }

  private func waitUntilListening() throws {
    for _ in 0..<200 {
      if Self.connects(port) { return }
      guard process.isRunning else { break }
      usleep(50_000)
    }
    stop()
    throw FixtureError("the test HTTP server did not listen on 127.0.0.1:\(port)")
  }

  private static func loopback(_ port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }

  private static func connects(_ port: UInt16) -> Bool {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return false }
    defer { close(socket) }
    var address = loopback(port)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }

  /// A port the kernel hands out for 127.0.0.1, released for the server to take.
  private static func freePort() throws -> UInt16 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw FixtureError("socket() failed") }
    defer { close(socket) }
    var address = loopback(0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
      }
    }
    guard bound else { throw FixtureError("cannot bind a port on 127.0.0.1") }
    return UInt16(bigEndian: address.sin_port)
  }
}
