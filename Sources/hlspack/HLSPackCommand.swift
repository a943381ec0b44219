import ArgumentParser
import HLSPack

@main
struct HLSPackCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "hlspack",
    abstract: "Transcode, segment and encrypt media into HLS packages.",
    version: HLSPackVersion.current,
    subcommands: [
      EncodeCommand.self, BatchCommand.self, RewriteKeysCommand.self, VerifyCommand.self, ServeCommand.self,
      FixtureCommand.self,
    ])
}
