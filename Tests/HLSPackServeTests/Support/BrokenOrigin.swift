import Foundation
import HLSPackTestSupport

/// An origin for proxy mode that breaks HTTP in one way (`Mode`), on
/// 127.0.0.1 and a port the system picks: a Python script, since the point
/// is what a careless or hostile server sends, byte by byte.
final class BrokenOrigin {
  enum Mode: String, CaseIterable {
    /// A playlist of 17 MiB, more than serve reads whole.
    case huge
    /// A chunked playlist that never ends, sent as fast as it is taken.
    case endless
    /// A playlist whose body comes two bytes every 0.2 s and never ends.
    case trickle
    /// A playlist cut off after 100 of the 1000 bytes its Content-Length promised.
    case cut
    /// The connection reset (RST) once the request head is read.
    case reset
    /// A good response of 1000 bytes, then the connection closed 3 ms later without
    /// `Connection: close`: just as the proxy's next request may be sent on it.
    case closeAfterEachResponse = "close-after-each"
  }

  let process = Process()
  let port: Int
  var base: String { "http://127.0.0.1:\(port)" }

  init(_ mode: Mode) throws {
    let folder = try ScratchFolder.make("origin")
    let script = folder.appendingPathComponent("origin.py")
    try Data(Self.script.utf8).write(to: script)
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: try Command.which("python3"))
    process.arguments = [script.path, mode.rawValue]
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    var line = Data()
    while !line.contains(0x0A) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    else { throw FixtureError("the test origin did not start: \(String(decoding: line, as: UTF8.self))") }
    self.port = port
  }

  deinit {
    // SIGKILL: the test process blocks SIGTERM in its threads, and a child inherits that mask.
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  private static let script = #"""
    import socket, struct, sys, threading, time

    mode = sys.argv[1]
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    print(listener.getsockname()[1], flush=True)
    line = b"#" + b"x" * 1022 + b"\n"

    def read_head(conn):
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(4096)
            if not chunk:
                return None
            data += chunk
        return data

    def serve(conn):
        try:
            while read_head(conn) is not None:
                if mode == "close-after-each":
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + b"x" * 1000)
                    time.sleep(0.003)
                    return
                if mode == "huge":
                    length = 17 * 1024 * 1024
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % length)
                    for _ in range(length // len(line)):
                        conn.sendall(line)
                elif mode == "endless":
                    conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
                    while True:
                        conn.sendall(b"%x\r\n" % len(line) + line + b"\r\n")
                elif mode == "trickle":
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n#EXTM3U\n")
                    while True:
                        time.sleep(0.2)
                        conn.sendall(b"#\n")
                elif mode == "cut":
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n#EXTM3U\n" + b"#" * 92)
                    return
                elif mode == "reset":
                    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    return
        except OSError:
            pass
        finally:
            conn.close()

    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection,), daemon=True).start()
    """#
}
