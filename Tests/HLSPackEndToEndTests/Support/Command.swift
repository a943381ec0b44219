import Foundation

/// Runs a command-line tool and captures what it printed.
struct CommandResult {
  var status: Int32
  var stdout: Data
  var stderr: String
  var text: String { String(decoding: stdout, as: UTF8.self) }
}

enum Command {
  static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : try which(executable, path: environment?["PATH"]))
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

  static func which(_ name: String, path: String? = nil) throws -> String {
    for dir in (path ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
      let path = "\(dir)/\(name)"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    throw FixtureError("\(name) is not on PATH; run scripts/bootstrap")
  }
}

struct FixtureError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
