import Foundation

/// Runs a command-line tool and captures what it printed.
public struct CommandResult: Sendable {
  public var status: Int32
  public var stdout: Data
  public var stderr: String
  public var text: String { String(decoding: stdout, as: UTF8.self) }
}

public enum Command {
  /// The hlspack executable that `swift test` built next to the test bundle.
  public static func builtHlspack() throws -> String {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("hlspack").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      folder.deleteLastPathComponent()
    }
    throw FixtureError("cannot find the hlspack executable near \(CommandLine.arguments[0])")
  }

  public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws
    -> CommandResult
  {
    let process = Process()
    process.executableURL = URL(
      fileURLWithPath: executable.hasPrefix("/") ? executable : try which(executable, path: environment?["PATH"]))
    process.arguments = arguments
    if let environment { process.environment = environment }
    // stderr goes to a file so that neither stream can fill a pipe and stall the tool.
    let errFile = FileManager.default.temporaryDirectory.appendingPathComponent("hlspack-stderr-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errFile) }
    let err = try FileHandle(forWritingTo: errFile)
    let out = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try err.close()
    let errText = String(decoding: try Data(contentsOf: errFile), as: UTF8.self)
    return CommandResult(status: process.terminationStatus, stdout: outData, stderr: errText)
  }

  public static func which(_ name: String, path: String? = nil) throws -> String {
    for dir in (path ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
      let path = "\(dir)/\(name)"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    throw FixtureError("\(name) is not on PATH; run scripts/bootstrap")
  }
}

public struct FixtureError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
