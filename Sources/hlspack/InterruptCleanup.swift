import Dispatch
import Foundation
import HLSPackCore

/// On SIGINT/SIGTERM, removes the staging folders of assets in progress, so an
/// interrupted run leaves no partial package behind, then exits.
enum InterruptCleanup {
  nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

  static func install() {
    for signalNumber in [SIGINT, SIGTERM] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler {
        StagingRegistry.shared.removeAll()
        FileHandle.standardError.write(Data("\nhlspack: interrupted; nothing was published for unfinished assets\n".utf8))
        exit(ExitStatus.interrupted.rawValue)
      }
      source.resume()
      sources.append(source)
    }
  }
}
