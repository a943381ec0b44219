import Foundation

/// One step of an asset's work, for terminals and for pipelines (`--progress json`).
public struct ProgressEvent: Sendable, Codable, Equatable {
  public enum Kind: String, Sendable, Codable {
    case start, progress, done, failed
    /// A batch asset whose published record matches what would make it now.
    case skipped
  }

  public var event: Kind
  public var asset: String
  public var input: String
  /// Source seconds processed so far.
  public var seconds: Double
  /// Source duration, when the container declares it.
  public var duration: Double?
  public var percent: Double?
  /// Seconds of source per second of wall time.
  public var speed: Double?
  public var etaSeconds: Double?
  public var message: String?
  /// `done`: the published master playlist, as `DisplayPath` gives it.
  public var master: String?

  enum CodingKeys: String, CodingKey {
    case event, asset, input, seconds, duration, percent, speed, message, master
    case etaSeconds = "eta_seconds"
  }

  public init(
    event: Kind, asset: String, input: String, seconds: Double = 0, duration: Double? = nil,
    elapsed: Double = 0, message: String? = nil, master: String? = nil
  ) {
    self.event = event
    self.master = master
    self.asset = asset
    self.input = input
    // Milliseconds: frame times summed in binary floating point print as 13.320000000000007.
    self.seconds = (seconds * 1000).rounded() / 1000
    self.duration = duration.map { ($0 * 1000).rounded() / 1000 }
    self.message = message
    if let duration, duration > 0 {
      percent = min(100, (seconds / duration * 1000).rounded() / 10)
    }
    if elapsed > 0, seconds > 0 {
      let speed = seconds / elapsed
      self.speed = (speed * 100).rounded() / 100
      if let duration { etaSeconds = max(0, ((duration - seconds) / speed * 10).rounded() / 10) }
    }
  }
}

public protocol ProgressReporter: Sendable {
  func report(_ event: ProgressEvent)
}

public struct SilentProgress: ProgressReporter {
  public init() {}
  public func report(_ event: ProgressEvent) {}
}

/// One JSON object per line on standard output.
public struct JSONLinesProgress: ProgressReporter {
  public init() {}

  public func report(_ event: ProgressEvent) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(event) else { return }
    FileHandle.standardOutput.write(Data(TerminalText.jsonEscaped(String(decoding: data, as: UTF8.self)).utf8) + Data("\n".utf8))
  }
}

/// A bar per asset, redrawn in place on standard error.
public struct TerminalProgress: ProgressReporter {
  public init() {}

  public func report(_ event: ProgressEvent) {
    let line: String
    switch event.event {
    case .start:
      line = "\(event.asset): starting"
    case .progress:
      let fraction = (event.percent ?? 0) / 100
      let width = 30
      let filled = Int((fraction * Double(width)).rounded())
      let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
      var text = "\(event.asset) [\(bar)] \(String(format: "%5.1f%%", event.percent ?? 0))"
      if let speed = event.speed { text += String(format: "  %.2fx", speed) }
      if let eta = event.etaSeconds { text += String(format: "  ETA %.0fs", eta) }
      line = text
    case .done:
      line = "\(event.asset): done" + (event.speed.map { String(format: " (%.2fx realtime)", $0) } ?? "")
    case .failed:
      line = "\(event.asset): failed: \(event.message ?? "")"
    case .skipped:
      line = "\(event.asset): skipped: \(event.message ?? "")"
    }
    let ending = event.event == .progress ? "" : "\n"
    // Asset names and messages may hold escape sequences: the line's own is the only one sent.
    StandardError.write("\r\u{1B}[2K" + TerminalText.escaped(line) + ending)
  }
}
