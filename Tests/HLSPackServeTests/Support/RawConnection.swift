import Foundation
import HLSPackTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP connection to 127.0.0.1 driven byte by byte, for clients that
/// misbehave on purpose: silent, half a request head, one byte at a time, or
/// not reading what they asked for.
final class RawConnection {
  let socket: Int32
  let opened = Date()

  init(port: Int, receiveBuffer: Int? = nil) throws {
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw FixtureError("socket() failed: errno \(errno)") }
    if var size = receiveBuffer.map(Int32.init) {
      setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    guard connected else {
      close(socket)
      throw FixtureError("cannot connect to 127.0.0.1:\(port): errno \(errno)")
    }
  }

  deinit { close(socket) }

  /// Sends `text`; false if the server closed the connection already.
  @discardableResult func send(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
  }

  /// Reads up to `count` bytes, waiting at most `timeout` seconds: nil when
  /// nothing came in that time, empty when the server closed the connection.
  func read(upTo count: Int, timeout: Double) -> Data? {
    var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return nil }
    var buffer = [UInt8](repeating: 0, count: count)
    let read = recv(socket, &buffer, count, 0)
    return read > 0 ? Data(buffer.prefix(read)) : Data()
  }

  /// Seconds from `since` until the server closed the connection, reading
  /// (and dropping) whatever it sends; nil if it is still open after `timeout` seconds.
  func secondsUntilClosed(since: Date? = nil, timeout: Double) -> Double? {
    let start = since ?? opened
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
      guard let data = read(upTo: 65536, timeout: max(0.001, end.timeIntervalSinceNow)) else { return nil }
      if data.isEmpty { return Date().timeIntervalSince(start) }
    }
    return nil
  }
}
