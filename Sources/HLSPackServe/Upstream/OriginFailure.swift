/// Why an origin's answer cannot be passed on, besides the HTTP client's own
/// errors: said in the 502's body and in the log's `upstream_error`.
enum OriginFailure: Error, CustomStringConvertible {
  /// A body read whole before it is answered (a playlist, a key) is longer than serve reads.
  case bodyTooLarge(limit: Int)
  /// The response head, or a body read whole, did not come within `--upstream-timeout`.
  case tooSlow(timeout: Duration)

  var description: String {
    switch self {
    case .bodyTooLarge(let limit):
      let size = limit % (1024 * 1024) == 0 ? "\(limit / 1024 / 1024) MiB" : "\(limit / 1024) KiB"
      return "the body is longer than \(size), the most serve reads of a playlist or key"
    case .tooSlow(let timeout):
      return "no whole answer within \(Self.format(ConnectionLimits.seconds(timeout))) s (--upstream-timeout)"
    }
  }

  private static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }
}
