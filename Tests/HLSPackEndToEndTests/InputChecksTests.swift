import Foundation
import HLSPackTestSupport
import Testing

/// Inputs that are not what a finished media file is: a pipe, a device, a
/// folder, a file still being written, a file cut short, a header that
/// declares too much. Each fails alone, named, and nothing of it is published.
@Suite("hlspack inputs")
struct InputChecksTests {
  /// `hlspack encode` with the default two-rung test profile into `scratch/out`,
  /// stopped after `timeout` seconds (exit 124) rather than hanging the suite.
  func encode(_ inputs: [String], in scratch: URL, timeout: Int = 300) throws -> CommandResult {
    let profile = try Fixtures.profile(in: scratch)
    let output = scratch.appendingPathComponent("out")
    return try Command.run(
      "timeout",
      ["\(timeout)", try Fixtures.executable(), "encode", "--profile", profile.path, "--output", output.path] + inputs)
  }

  func published(in scratch: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: scratch.appendingPathComponent("out").path)) ?? []).sorted()
  }

  /// A named pipe without a writer blocked the run, and every input after
  /// it, forever; a device or a folder is no file either.
  @Test func inputsThatAreNotRegularFilesAreRefusedAndTheOthersRun() throws {
    let scratch = try ScratchFolder.make()
    let fifo = scratch.appendingPathComponent("live.ts")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    let folder = scratch.appendingPathComponent("folder.mp4")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    let run = try encode([fifo.path, "/dev/zero", folder.path, try Fixtures.clip().path], in: scratch, timeout: 120)
    #expect(run.status == 1, "\(run.stderr)")
    #expect(run.stderr.contains("\(fifo.path): is a named pipe (FIFO), not a regular file"), "\(run.stderr)")
    #expect(run.stderr.contains("/dev/zero: is a character device, not a regular file"), "\(run.stderr)")
    #expect(run.stderr.contains("\(folder.path): is a folder, not a regular file"), "\(run.stderr)")
    #expect(published(in: scratch) == ["clip"])
  }

  /// A recording still being written was published as a complete, shorter
  /// asset with exit 0. Here the source grows once its asset is being made.
  @Test func anInputThatGrowsDuringTheRunFailsNamingIt() throws {
    let scratch = try ScratchFolder.make()
    let source = scratch.appendingPathComponent("recording.ts")
    try Fixtures.ffmpeg([
      "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=20", "-c:v", "libx264", "-preset", "ultrafast",
      "-g", "25", "-pix_fmt", "yuv420p", source.path,
    ])
    let more = try Data(contentsOf: source)
    let profile = try Fixtures.profile(in: scratch, encryption: #"{"method": "none"}"#)
    let output = scratch.appendingPathComponent("out")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try Fixtures.executable())
    process.arguments = ["encode", "--profile", profile.path, "--output", output.path, source.path]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    // The staging folder appears once the source has been looked at, before any encoding.
    while process.isRunning,
      !((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []).contains(where: {
        $0.hasPrefix(".recording.partial-")
      })
    {
      usleep(1000)
    }
    let handle = try FileHandle(forWritingTo: source)
    try handle.seekToEnd()
    try handle.write(contentsOf: more)
    try handle.close()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1, "\(stderr)")
    #expect(
      stderr.contains(
        "\(source.path): changed while it was being encoded (its size went from \(more.count) to \(2 * more.count) bytes)"
      ), "\(stderr)")
    #expect(published(in: scratch).isEmpty)
  }

  /// FFmpeg 5.1 fails to open such a file with "Device or resource busy".
  @Test func aY4MHeaderDeclaringAHugePictureIsNamed() throws {
    let scratch = try ScratchFolder.make()
    let source = scratch.appendingPathComponent("huge.y4m")
    try (Data("YUV4MPEG2 W30000 H30000 F25:1 Ip A1:1 C420jpeg\nFRAME\n".utf8) + Data(count: 100_000)).write(to: source)
    let run = try encode([source.path], in: scratch)
    #expect(run.status == 1)
    #expect(
      run.stderr.contains(
        "\(source.path): its YUV4MPEG2 header declares a 30000x30000 picture, larger than FFmpeg can decode"),
      "\(run.stderr)")
    #expect(published(in: scratch).isEmpty)
  }

  /// With its index first, an MP4 missing its last 5000 bytes reads to a
  /// last packet cut in two, which the decoder refused ("Invalid data found
  /// when processing input"); too little is missing for the declared length to tell.
  @Test func anMP4EndingInsideAPacketIsTruncated() throws {
    let scratch = try ScratchFolder.make()
    let whole = scratch.appendingPathComponent("whole.mp4")
    try Fixtures.ffmpeg(["-i", try Fixtures.clip().path, "-c", "copy", "-movflags", "+faststart", whole.path])
    let bytes = try Data(contentsOf: whole)
    let cut = scratch.appendingPathComponent("cut.mp4")
    try bytes.prefix(bytes.count - 5000).write(to: cut)
    let run = try encode([cut.path], in: scratch)
    #expect(run.status == 1)
    #expect(run.stderr.contains("\(cut.path): the file ends inside a packet of stream"), "\(run.stderr)")
    #expect(run.stderr.contains("the file is truncated"))
    #expect(published(in: scratch).isEmpty)
  }
}
