import Foundation
import HLSPackTestSupport

/// What running one block gave.
struct DocBlockOutcome: Sendable {
  var status: Int32
  var timedOut: Bool
  var stdout: String
  var stderr: String
  /// The folder the block ran in (its current folder).
  var folder: URL
  var seconds: Double
}

/// Runs doc blocks as a reader would paste them into a shell at the top of a
/// clone: in a scratch folder holding a copy of Profiles/, samples/, deploy/,
/// scripts/bootstrap and scripts/update-usage, with `hlspack` on PATH as the built binary (`swift run
/// hlspack` is read as `hlspack`), HOME a folder of its own, bash with `-e`
/// and `pipefail`. Each block is its own process group, killed when the block
/// ends, so servers it started in the background do not outlive it.
actor DocBlockRunner {
  static let shared = DocBlockRunner()

  /// At most this many blocks at once: encodes use every core already.
  private let slots = 3
  private var busy = 0
  private var waiting: [CheckedContinuation<Void, Never>] = []
  private var runs: [String: Task<DocBlockOutcome, Error>] = [:]

  /// The block's outcome; each block runs once per test process, however many ask.
  func outcome(of block: DocBlock) async throws -> DocBlockOutcome {
    if let run = runs[block.id] { return try await run.value }
    let run = Task { try await self.execute(block) }
    runs[block.id] = run
    return try await run.value
  }

  private func execute(_ block: DocBlock) async throws -> DocBlockOutcome {
    var fixture: URL?
    if let needs = block.annotations.needs {
      guard let maker = DocPages.all.blocks.first(where: { $0.annotations.makes == needs }) else {
        throw FixtureError("\(block.id): no block makes \"\(needs)\"")
      }
      let made = try await outcome(of: maker)
      guard made.status == 0, !made.timedOut else {
        throw FixtureError("\(block.id): \(maker.id), which makes \"\(needs)\", failed:\n\(made.stderr)")
      }
      fixture = made.folder
    }
    await acquire()
    defer { release() }
    let scratch = try ScratchFolder.make("doc-\(block.page)-\(block.line)")
    return try await DocBlockProcess.run(block, in: scratch, fixture: fixture)
  }

  private func acquire() async {
    if busy < slots {
      busy += 1
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  private func release() {
    if waiting.isEmpty {
      busy -= 1
    } else {
      waiting.removeFirst().resume()
    }
  }
}

/// One block as one bash process.
enum DocBlockProcess {
  static func run(_ block: DocBlock, in scratch: URL, fixture: URL?) async throws -> DocBlockOutcome {
    let work = try prepare(scratch, fixture: fixture)
    let script = try text(of: block)
    let files = (
      script: scratch.appendingPathComponent("block.sh"), stdout: scratch.appendingPathComponent("stdout"),
      stderr: scratch.appendingPathComponent("stderr"), group: scratch.appendingPathComponent("group")
    )
    // The block records its process group (setsid made it its own), and on
    // leaving, also on an error under -e, stops what it left running in the
    // background: a server holding the block's descriptors would keep the
    // block from being seen to end.
    let prologue = """
      echo $$ > '\(files.group.path)'
      trap 'status=$?; trap "" TERM; kill -TERM 0 2>/dev/null; exit $status' EXIT

      """
    try (prologue + script + "\n").write(to: files.script, atomically: true, encoding: .utf8)
    for file in [files.stdout, files.stderr] { try Data().write(to: file) }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
    process.arguments = ["--wait", "/bin/bash", "-e", "-o", "pipefail", files.script.path]
    process.currentDirectoryURL = work
    process.environment = environment(scratch)
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: files.stdout)
    process.standardError = try FileHandle(forWritingTo: files.stderr)

    let started = Date()
    let timer = KillTimer()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      process.terminationHandler = { _ in done.resume() }
      do {
        try process.run()
        timer.arm(after: block.annotations.timeout, group: files.group)
      } catch {
        process.terminationHandler = nil
        done.resume()
      }
    }
    timer.disarm()
    KillTimer.killGroup(recordedIn: files.group)
    return DocBlockOutcome(
      status: process.isRunning ? -1 : process.terminationStatus, timedOut: timer.fired,
      stdout: (try? String(contentsOf: files.stdout, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOf: files.stderr, encoding: .utf8)) ?? "",
      folder: work, seconds: Date().timeIntervalSince(started))
  }

  /// The block's text as it runs: `swift run hlspack` as `hlspack`, annotated ports made free ones.
  static func text(of block: DocBlock) throws -> String {
    var script = block.script.replacingOccurrences(of: "swift run hlspack", with: "hlspack")
    // Through placeholders, so that a free port never holds a later port's digits.
    let ports = block.annotations.ports
    for (index, port) in ports.enumerated() {
      script = script.replacingOccurrences(of: String(port), with: "\u{1}port\(index)\u{1}")
    }
    for index in ports.indices {
      script = script.replacingOccurrences(of: "\u{1}port\(index)\u{1}", with: String(try FreePort.pick()))
    }
    return script
  }

  /// `scratch/work`: Profiles/, samples/, deploy/, the two scripts and, for a block that needs it, the fixture's files.
  static func prepare(_ scratch: URL, fixture: URL?) throws -> URL {
    let manager = FileManager.default
    let root = DocPages.projectRoot
    let work = scratch.appendingPathComponent("work")
    if let fixture {
      try manager.copyItem(at: fixture, to: work)
    } else {
      try manager.createDirectory(at: work.appendingPathComponent("scripts"), withIntermediateDirectories: true)
      for folder in ["Profiles", "samples", "deploy"] {
        try manager.copyItem(at: root.appendingPathComponent(folder), to: work.appendingPathComponent(folder))
      }
      for script in ["scripts/bootstrap", "scripts/update-usage"] {
        try manager.copyItem(at: root.appendingPathComponent(script), to: work.appendingPathComponent(script))
      }
    }
    let bin = scratch.appendingPathComponent("bin")
    try manager.createDirectory(at: bin, withIntermediateDirectories: true)
    try manager.createSymbolicLink(
      atPath: bin.appendingPathComponent("hlspack").path, withDestinationPath: try Command.builtHlspack())
    try manager.createDirectory(at: scratch.appendingPathComponent("home"), withIntermediateDirectories: true)
    return work
  }

  /// PATH with the built hlspack first; a HOME of the block's own, so that serve's
  /// authority and other state stay in the scratch folder; bootstrap's tools where they are.
  static func environment(_ scratch: URL) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    let home = environment["HOME"] ?? NSHomeDirectory()
    let data = environment["XDG_DATA_HOME"] ?? "\(home)/.local/share"
    environment["HLSPACK_TOOLS"] = environment["HLSPACK_TOOLS"] ?? "\(data)/hlspack/tools"
    environment["HOME"] = scratch.appendingPathComponent("home").path
    environment["XDG_DATA_HOME"] = nil
    environment["PATH"] = scratch.appendingPathComponent("bin").path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    environment["COLUMNS"] = "80"
    return environment
  }
}

/// Kills a block's process group when its time is up.
final class KillTimer: @unchecked Sendable {
  private let lock = NSLock()
  private var armed = false
  private var didFire = false
  var fired: Bool { lock.withLock { didFire } }

  func arm(after seconds: Double, group: URL) {
    lock.withLock { armed = true }
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
      let fire = self.lock.withLock {
        defer { self.armed = false }
        self.didFire = self.armed
        return self.armed
      }
      if fire { Self.killGroup(recordedIn: group) }
    }
  }

  func disarm() { lock.withLock { armed = false } }

  /// SIGKILL to the process group whose id the block wrote (nothing if it is gone).
  static func killGroup(recordedIn file: URL) {
    guard let text = try? String(contentsOf: file, encoding: .utf8),
      let group = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), group > 1
    else { return }
    kill(-group, SIGKILL)
  }
}

/// A TCP port nobody listens on now, from the kernel (bind to port 0).
enum FreePort {
  static func pick() throws -> Int {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw FixtureError("socket: \(String(cString: strerror(errno)))") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
      }
    }
    guard bound else { throw FixtureError("bind: \(String(cString: strerror(errno)))") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
