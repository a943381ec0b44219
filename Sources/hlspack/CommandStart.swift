import Foundation
import HLSPackMedia
import Logging

/// What every command that makes or changes packages does first: signals
/// taken by our own thread before any other starts (see
/// `InterruptCleanup.install`), warnings to stderr, FFmpeg's own log only with
/// `--verbose`.
func startCommand(verbose: Bool) -> Logger {
  InterruptCleanup.install()
  LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = .warning
    return handler
  }
  FFmpegLogging.configure(verbose: verbose)
  return Logger(label: "hlspack")
}

func printError(_ message: String) {
  FileHandle.standardError.write(Data("hlspack: error: \(message)\n".utf8))
}
