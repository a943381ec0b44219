/// The values a scenario may hold. A scenario comes from a file or from anyone
/// who can reach `POST /_hlspack/scenario`, so every number is checked when it
/// is loaded, and the code that uses one stays total for any value anyway.
enum ScenarioLimits {
  /// A pace from one byte a second up to 10^12 bytes a second (beyond any link a player sits behind).
  static let bytesPerSecond: ClosedRange<Double> = 1...1e12
  /// Any time a scenario names (`delay_ms`, `stall.ms`, `from_seconds`,
  /// `until_seconds`, a schedule step's `seconds`) is at most 7 days.
  static let longestSeconds: Double = 7 * 86_400
  static let longestMilliseconds = 7 * 86_400 * 1000
  /// Final statuses only: a 1xx answer is interim, and a client would wait for the real one.
  static let statuses = 200...599
  /// Statuses that never carry a body (RFC 9110 sections 15.3.5, 15.3.6 and 15.4.5).
  static let bodilessStatuses: Set = [204, 205, 304]
  /// Headers that frame the message or the connection (RFC 9110 section 7.6.1,
  /// RFC 9112 section 6): the server sets them from the body it sends, so a
  /// rule may not, or the client would read the stream wrongly.
  static let framingHeaders: Set = [
    "content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer",
    "proxy-connection",
  ]

  /// The rate to pace at for any value: out-of-range values (NaN included) are brought into `bytesPerSecond`.
  static func clampedRate(_ rate: Double) -> Double {
    guard rate >= bytesPerSecond.lowerBound else { return bytesPerSecond.lowerBound }
    return min(rate, bytesPerSecond.upperBound)
  }

  /// Milliseconds to wait for any value: negative is none, more than the longest is the longest.
  static func clampedMilliseconds(_ milliseconds: Int) -> Int {
    min(max(0, milliseconds), longestMilliseconds)
  }

  /// An RFC 9110 token (section 5.6.2), as a field name must be.
  static func isToken(_ text: String) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
          || "!#$%&'*+-.^_`|~".utf8.contains(byte)
      }
  }

  /// A field value without control bytes (RFC 9110 section 5.5; a tab is allowed).
  static func isFieldValue(_ text: String) -> Bool {
    text.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
  }
}
