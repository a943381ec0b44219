import ArgumentParser
import Foundation
import HLSPackCore

enum ProgressMode: String, ExpressibleByArgument, CaseIterable {
  case auto, bar, json, none

  func reporter() -> ProgressReporter {
    switch self {
    case .json: JSONLinesProgress()
    case .bar: TerminalProgress()
    case .none: SilentProgress()
    case .auto: isatty(STDERR_FILENO) == 1 ? TerminalProgress() : SilentProgress()
    }
  }
}
