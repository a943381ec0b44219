import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// How a body leaves the server: paced, stalled once, or cut short.
struct BodyShape: Sendable {
  var stall: Stall?
  var truncateBytes: Int?
  var pace: Pace?

  struct Pace: Sendable {
    var throughput: Throughput
    var key: String
    var origin: ContinuousClock.Instant
    var pacers: Pacers
  }

  var isPlain: Bool { stall == nil && truncateBytes == nil && pace == nil }
}

/// Thrown to end a response early: the server then closes the connection,
/// so the client sees fewer bytes than Content-Length announced.
struct BodyTruncated: Error {}

/// Counts the body bytes that reached the connection.
final class SentBytes: Sendable {
  private let count = Atomic<Int>(0)
  var value: Int { count.load(ordering: .relaxed) }
  func add(_ bytes: Int) { count.add(bytes, ordering: .relaxed) }
}

/// Writes a body through a `BodyShape`, splitting buffers where a stall, a
/// truncation or the pace needs it.
struct ShapingWriter: ResponseBodyWriter {
  var inner: any ResponseBodyWriter
  let shape: BodyShape
  let sent: SentBytes
  private var stalled = false

  init(inner: any ResponseBodyWriter, shape: BodyShape, sent: SentBytes) {
    self.inner = inner
    self.shape = shape
    self.sent = sent
  }

  mutating func write(_ buffer: ByteBuffer) async throws {
    var buffer = buffer
    while buffer.readableBytes > 0 {
      try await stallIfDue()
      var size = buffer.readableBytes
      if let limit = shape.truncateBytes {
        guard sent.value < limit else { throw BodyTruncated() }
        size = min(size, limit - sent.value)
      }
      if let stall = shape.stall, !stalled { size = min(size, max(0, stall.afterBytes) - sent.value) }
      if let pace = shape.pace {
        let rate = pace.throughput.bytesPerSecond(at: ScenarioState.seconds(.now - pace.origin))
        size = min(size, Pacers.chunkSize(rate: rate))
        let due = pace.pacers.reserve(bytes: size, key: pace.key, throughput: pace.throughput, origin: pace.origin)
        try await Task.sleep(until: due, clock: .continuous)
      }
      guard let slice = buffer.readSlice(length: size) else { return }
      try await inner.write(slice)
      sent.add(size)
    }
  }

  consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
    try await stallIfDue()
    try await inner.finish(trailingHeaders)
  }

  private mutating func stallIfDue() async throws {
    guard let stall = shape.stall, !stalled, sent.value >= stall.afterBytes else { return }
    stalled = true
    try await Task.sleep(for: .milliseconds(ScenarioLimits.clampedMilliseconds(stall.ms)))
  }
}
