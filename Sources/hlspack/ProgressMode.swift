import ArgumentParser
import Foundation
import HLSPackCore

extension EncodeCommand.ProgressMode {
  func reporter() -> ProgressReporter {
    switch self {
    case .json: JSONLinesProgress()
    case .bar: TerminalProgress()
    case .none: SilentProgress()
    case .auto: isatty(STDERR_FILENO) == 1 ? TerminalProgress() : SilentProgress()
    }
  }
}
