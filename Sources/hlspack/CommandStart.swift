import Foundation
import HLSPackCore
import HLSPackMedia
import Logging

/// What every command that makes or changes packages does first: signals
/// taken by our own thread before any other starts (see
/// `InterruptCleanup.install`), warnings to stderr, FFmpeg's own log only with
/// `--verbose`.
func startCommand(verbose: Bool) -> Logger {
  InterruptCleanup.install()
  LoggingSystem.bootstrap { label in
    var handler = EscapingLogHandler(StreamLogHandler.standardError(label: label))
    handler.logLevel = .warning
    return handler
  }
  FFmpegLogging.configure(verbose: verbose)
  return Logger(label: "hlspack")
}

/// Messages name files and assets, whose names may hold control characters: escaped (`TerminalText`).
func printError(_ message: String) {
  StandardError.write("hlspack: error: \(TerminalText.escaped(message))\n")
}

/// A warning that is not the logger's (a command's own summary), escaped as `printError` does.
func printWarning(_ message: String) {
  StandardError.write("hlspack: warning: \(TerminalText.escaped(message))\n")
}

/// swift-log's handler for stderr, with every message escaped as `printError` does.
struct EscapingLogHandler: LogHandler {
  private var inner: StreamLogHandler

  init(_ inner: StreamLogHandler) { self.inner = inner }

  func log(event: LogEvent) {
    var escaped = event
    escaped.message = "\(TerminalText.escaped(event.message.description))"
    inner.log(event: escaped)
  }

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { inner[metadataKey: key] }
    set { inner[metadataKey: key] = newValue }
  }

  var metadata: Logger.Metadata {
    get { inner.metadata }
    set { inner.metadata = newValue }
  }

  var logLevel: Logger.Level {
    get { inner.logLevel }
    set { inner.logLevel = newValue }
  }
}
