import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// Clients that hold connections without finishing requests, or stop
  /// reading responses, are closed by the timeouts; connections beyond the cap
  /// are closed at once. The timeouts are short here (1 s and 1.5 s) to keep
  /// the tests fast; the margins allow for a loaded machine.
  @Suite("serve: connection timeouts and cap")
  struct ConnectionLimitTests {
    static let timeouts = ["--header-timeout", "1", "--idle-timeout", "1.5"]

    @Test func silentHalfHeadByteByByteAndSlowBodyClientsAreClosedByTheHeaderTimeout() throws {
      let server = try ServerProcess(folder: try ServeFixtures.tree(), arguments: Self.timeouts)
      let silent = try RawConnection(port: server.port)
      let halfHead = try RawConnection(port: server.port)
      halfHead.send("GET /master.m3u8 HTTP/1.1\r\nHost: 127.0.0.1\r\n")
      let slowloris = try RawConnection(port: server.port)
      var slowlorisClosed: Double?
      for byte in "GET /master.m3u8 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: aaaaaaaaaaaaaaaaaaaa" {
        guard slowloris.send(String(byte)), slowloris.read(upTo: 1, timeout: 0.2) == nil else {
          slowlorisClosed = Date().timeIntervalSince(slowloris.opened)
          break
        }
      }
      let slowBody = try RawConnection(port: server.port)
      slowBody.send("POST /_hlspack/scenario HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n")
      var slowBodyClosed: Double?
      for _ in 0..<20 {
        guard slowBody.send("{"), slowBody.read(upTo: 1, timeout: 0.2) == nil else {
          slowBodyClosed = Date().timeIntervalSince(slowBody.opened)
          break
        }
      }
      #expect(slowBodyClosed.map { $0 >= 0.9 && $0 < 2.5 } == true, "\(String(describing: slowBodyClosed))")
      for (name, connection) in [("silent", silent), ("half head", halfHead)] {
        let closed = connection.secondsUntilClosed(timeout: 4)
        #expect(closed.map { $0 >= 0.9 && $0 < 2.5 } == true, "\(name): \(String(describing: closed))")
      }
      #expect(slowlorisClosed.map { $0 >= 0.9 && $0 < 2.5 } == true, "\(String(describing: slowlorisClosed))")
      #expect(try Curl.run(server.base + "/master.m3u8").status == 200, "the server still answers")
    }

    @Test func aKeptAliveConnectionIsClosedByTheIdleTimeoutAfterItsResponse() throws {
      let server = try ServerProcess(folder: try ServeFixtures.tree(), arguments: Self.timeouts)
      let client = try RawConnection(port: server.port)
      // Half a second into the header timeout: the idle timeout starts again at the response.
      Thread.sleep(forTimeInterval: 0.5)
      client.send("GET /keys/k.key HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      let response = try #require(client.read(upTo: 4096, timeout: 2))
      #expect(String(decoding: response, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
      let answered = Date()
      let closed = client.secondsUntilClosed(since: answered, timeout: 4)
      #expect(closed.map { $0 >= 1.4 && $0 < 3 } == true, "\(String(describing: closed))")
    }

    @Test func aClientThatStopsReadingIsClosedByTheSendTimeout() throws {
      let folder = try ScratchFolder.make("large")
      let size = 32 << 20
      try Data(repeating: 7, count: size).write(to: folder.appendingPathComponent("large.ts"))
      let server = try ServerProcess(folder: folder, arguments: ["--send-timeout", "1"])
      let stalled = try RawConnection(port: server.port, receiveBuffer: 4096)
      stalled.send("GET /large.ts HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      _ = stalled.read(upTo: 1000, timeout: 2)
      let reader = try RawConnection(port: server.port)
      reader.send("GET /large.ts HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      // Steady, if not fast: 64 KiB every 20 ms for 2.5 s, never a second without taking bytes.
      var read = 0
      for _ in 0..<125 {
        guard let data = reader.read(upTo: 65536, timeout: 1), !data.isEmpty else { break }
        read += data.count
        Thread.sleep(forTimeInterval: 0.02)
      }
      let entries = try server.entries(path: "/large.ts")
      #expect(entries.count == 1, "only the stalled client's response has ended")
      let sent = entries.first?["bytes"] as? Int ?? size
      #expect(sent < size, "cut short: \(sent) of \(size)")
      let took = entries.first?["duration_ms"] as? Double ?? 0
      #expect(took >= 900 && took < 2500, "\(took) ms")
      #expect(reader.read(upTo: 1, timeout: 0.5)?.isEmpty != true, "the steady reader is still served, \(read) bytes")
    }

    @Test func connectionsBeyondTheCapAreClosedAtOnce() throws {
      let server = try ServerProcess(folder: try ServeFixtures.tree(), arguments: ["--max-connections", "3"])
      var held = try (0..<3).map { _ in try RawConnection(port: server.port) }
      Thread.sleep(forTimeInterval: 0.2)
      let refused = try RawConnection(port: server.port)
      let closed = refused.secondsUntilClosed(timeout: 2)
      #expect(closed.map { $0 < 0.5 } == true, "\(String(describing: closed))")
      #expect(held.allSatisfy { $0.read(upTo: 1, timeout: 0.01) == nil }, "the held ones stay open")
      held.removeLast()
      Thread.sleep(forTimeInterval: 0.2)
      #expect(try Curl.run(server.base + "/master.m3u8").status == 200, "a place freed is taken")
    }

    /// The cap that follows from a low open-file limit is reached before the
    /// limit: a flood of 250 connections no longer leaves the server unable to
    /// accept (it used to wait on EMFILE, and a normal client timed out).
    @Test func underALowFileLimitAFloodLeavesRoomForANormalClient() throws {
      let server = try ServerProcess(
        folder: try ServeFixtures.tree(), arguments: ["--header-timeout", "1"], fileLimit: 160)
      let flood = try (0..<250).map { _ in try RawConnection(port: server.port) }
      let start = Date()
      let lasted = flood.map { $0.secondsUntilClosed(since: start, timeout: 5) }
      #expect(lasted.allSatisfy { $0 != nil }, "every connection of the flood was closed")
      #expect((lasted.compactMap { $0 }.max() ?? 99) < 2.5, "by the header timeout at the latest")
      let normal = try Curl.run(server.base + "/master.m3u8", ["--max-time", "2"])
      #expect(normal.status == 200, "\(normal.stderr)")
      #expect(normal.seconds < 1)
    }

    @Test func limitsOutOfRangeAreRefused() throws {
      let folder = try ServeFixtures.tree()
      for arguments in [["--idle-timeout", "0"], ["--header-timeout", "-1"], ["--max-connections", "0"]] {
        let run = try Command.run(try ServerProcess.executable(), ["serve", folder.path, "--port", "0"] + arguments)
        #expect(run.status == 64, "\(arguments)")
        #expect(run.stderr.contains(arguments[0]), "\(run.stderr)")
      }
      let beyond = try Command.run(
        "/bin/sh",
        [
          "-c", "ulimit -n 200 && exec \"$0\" serve \"$1\" --port 0 --max-connections 5000",
          try ServerProcess.executable(), folder.path,
        ])
      #expect(beyond.status == 64)
      #expect(beyond.stderr.contains("raise it with ulimit -n"), "\(beyond.stderr)")
    }
  }
}
