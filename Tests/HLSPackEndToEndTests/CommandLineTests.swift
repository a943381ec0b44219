import Foundation
import HLSPack
import HLSPackCore
import HLSPackTestSupport
import Testing

/// The `hlspack` executable as users and pipelines run it: exit codes, error
/// messages that name the file, nothing published on failure.
@Suite("hlspack command line")
struct CommandLineTests {
  struct Run {
    var result: CommandResult
    var output: URL
  }

  func encode(_ input: String, profileEncryption: String = #"{"method": "aes-128"}"#, extra: [String] = []) throws
    -> Run
  {
    let scratch = try ScratchFolder.make()
    let profile = try Fixtures.profile(in: scratch, encryption: profileEncryption)
    let output = scratch.appendingPathComponent("out")
    let result = try Command.run(
      try Fixtures.executable(), ["encode", "--profile", profile.path, "--output", output.path] + extra + [input])
    return Run(result: result, output: output)
  }

  /// The clip remuxed (`-c copy` plus `options`) into `scratch/name`.
  func remuxedClip(_ name: String, _ options: [String], in scratch: URL) throws -> URL {
    let url = scratch.appendingPathComponent(name)
    let made = try Command.run(
      "ffmpeg", ["-v", "error", "-i", try Fixtures.clip().path, "-c", "copy"] + options + [url.path])
    guard made.status == 0 else { throw FixtureError(made.stderr) }
    return url
  }

  /// Nothing at all in the output folder: no asset, no staging leftovers.
  func expectNothingPublished(_ output: URL) {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
    #expect(entries.isEmpty, "left behind: \(entries)")
  }

  @Test func encodesAndPrintsTheMasterPlaylist() throws {
    let run = try encode(try Fixtures.clip().path)
    #expect(run.result.status == 0, "\(run.result.stderr)")
    #expect(run.result.text.hasSuffix("clip/master.m3u8\n"))
    #expect(FileManager.default.fileExists(atPath: run.output.appendingPathComponent("clip/report.json").path))
  }

  /// report.json hashes segments only when asked, and then the bytes as written (encrypted).
  @Test func checksumsAreTheWrittenSegmentsSHA256OnlyWhenAsked() throws {
    func segments(_ run: Run) throws -> [[String: Any]] {
      try Fixtures.reportSegments(asset: run.output.appendingPathComponent("clip"))
    }
    let plain = try encode(try Fixtures.clip().path)
    #expect(plain.result.status == 0, "\(plain.result.stderr)")
    let unhashed = try segments(plain)
    #expect(!unhashed.isEmpty)
    #expect(unhashed.allSatisfy { $0["sha256"] == nil })

    let hashed = try encode(try Fixtures.clip().path, extra: ["--checksums"])
    #expect(hashed.result.status == 0, "\(hashed.result.stderr)")
    let listed = try segments(hashed)
    #expect(listed.count == unhashed.count)
    for segment in listed {
      let uri = try #require(segment["uri"] as? String)
      let file = hashed.output.appendingPathComponent("clip").appendingPathComponent(uri)
      let sum = try Command.run("sha256sum", [file.path]).text.prefix(64)
      #expect(segment["sha256"] as? String == String(sum), "\(uri)")
      #expect(segment["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int))
    }
  }

  @Test func missingInputFailsNamingTheFile() throws {
    let run = try encode("/nonexistent/movie.mp4")
    #expect(run.result.status == 1)
    #expect(run.result.stderr.contains("/nonexistent/movie.mp4: no such file"))
    #expect(
      !FileManager.default.fileExists(atPath: run.output.path),
      "a run that published nothing leaves no output folder it made")
  }

  @Test func textFileNamedMP4IsRejected() throws {
    let scratch = try ScratchFolder.make()
    let fake = scratch.appendingPathComponent("notes.mp4")
    try Data("just some text, not a movie\n".utf8).write(to: fake)
    let run = try encode(fake.path)
    #expect(run.result.status == 1)
    #expect(run.result.stderr.contains("\(fake.path): not a media file"))
    expectNothingPublished(run.output)
  }

  @Test func truncatedMP4IsRejected() throws {
    let scratch = try ScratchFolder.make()
    let clip = try Data(contentsOf: try Fixtures.clip())
    let truncated = scratch.appendingPathComponent("truncated.mp4")
    try clip.prefix(clip.count / 2).write(to: truncated)
    let run = try encode(truncated.path)
    #expect(run.result.status == 1)
    #expect(run.result.stderr.contains(truncated.path))
    expectNothingPublished(run.output)
  }

  /// With the header in front (faststart MP4; Matroska always), a cut file
  /// opens fine and reads as an early end of file; its declared duration gives it away.
  @Test(arguments: [("whole.mp4", ["-movflags", "+faststart"]), ("whole.mkv", [])])
  func truncatedFileIsRejectedNamingBothDurations(name: String, options: [String]) throws {
    let scratch = try ScratchFolder.make()
    let bytes = try Data(contentsOf: try remuxedClip(name, options, in: scratch))
    let truncated = scratch.appendingPathComponent("cut-" + name)
    try bytes.prefix(bytes.count / 2).write(to: truncated)
    let run = try encode(truncated.path)
    #expect(run.result.status == 1, "\(run.result.stderr)")
    // MP4 declares the video track's length; Matroska where its last stream ends.
    let what = name.hasSuffix(".mkv") ? "the last stream ends" : "the video ends"
    #expect(run.result.stderr.contains("\(truncated.path): \(what) after"), "\(run.result.stderr)")
    #expect(run.result.stderr.contains("the file is truncated"))
    expectNothingPublished(run.output)
  }

  /// A complete Matroska or WebM file whose audio runs past its video (a
  /// recording's audio tail) ends where the audio does: it is not truncated.
  @Test(arguments: ["tail.mkv", "tail.webm"])
  func matroskaWhoseAudioOutlastsTheVideoIsAccepted(name: String) throws {
    let scratch = try ScratchFolder.make()
    let source = scratch.appendingPathComponent(name)
    let codecs =
      name.hasSuffix(".webm")
      ? ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus"]
      : ["-c:v", "libx264", "-c:a", "aac"]
    let made = try Command.run(
      "ffmpeg",
      [
        "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=3", "-f", "lavfi", "-i",
        "sine=sample_rate=48000:duration=3.7",
        "-g", "25",
      ] + codecs + [source.path])
    #expect(made.status == 0, "\(made.stderr)")
    let run = try encode(source.path)
    #expect(run.result.status == 0, "\(run.result.stderr)")
  }

  /// A Matroska header declares where the file ends, not how long it lasts:
  /// a complete file whose timestamps start at 10 s is not truncated.
  @Test func completeMatroskaStartingLateIsAccepted() throws {
    let scratch = try ScratchFolder.make()
    let run = try encode(try remuxedClip("late.mkv", ["-output_ts_offset", "10"], in: scratch).path)
    #expect(run.result.status == 0, "\(run.result.stderr)")
  }

  @Test func fileWithoutVideoIsRejected() throws {
    let scratch = try ScratchFolder.make()
    let audioOnly = scratch.appendingPathComponent("tone.m4a")
    let made = try Command.run(
      "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac", audioOnly.path])
    #expect(made.status == 0)
    let run = try encode(audioOnly.path)
    #expect(run.result.status == 1)
    #expect(run.result.stderr.contains("\(audioOnly.path): has no video stream"))
    expectNothingPublished(run.output)
  }

  /// A clear lead as long as the asset leaves nothing to encrypt: said, not silent.
  @Test func clearLeadCoveringTheWholeAssetIsWarnedAbout() throws {
    let run = try encode(
      try Fixtures.clip().path, profileEncryption: #"{"method": "aes-128", "clear_lead_segments": 10}"#)
    #expect(run.result.status == 0, "\(run.result.stderr)")
    #expect(
      run.result.stderr.contains(
        "clip: clear_lead_segments is 10 but the asset has 4 segments: nothing was encrypted and no key was written"),
      "\(run.result.stderr)")
  }

  /// Music and podcast files carry cover art as a one-picture video stream:
  /// it is not video, and the message says what it is.
  @Test func audioWithCoverArtIsRejectedAsHavingNoVideo() throws {
    let scratch = try ScratchFolder.make()
    let cover = scratch.appendingPathComponent("cover.png")
    let song = scratch.appendingPathComponent("song.m4a")
    var made = try Command.run(
      "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=300x300", "-frames:v", "1", cover.path])
    #expect(made.status == 0, "\(made.stderr)")
    made = try Command.run(
      "ffmpeg",
      [
        "-v", "error", "-f", "lavfi", "-i", "sine=duration=2", "-i", cover.path, "-map", "0", "-map", "1", "-c:a",
        "aac", "-c:v", "png",
        "-disposition:v", "attached_pic", song.path,
      ])
    #expect(made.status == 0, "\(made.stderr)")
    let run = try encode(song.path)
    #expect(run.result.status == 1)
    #expect(
      run.result.stderr.contains("\(song.path): has no video stream, only cover art (an attached picture)"),
      "\(run.result.stderr)")
    expectNothingPublished(run.output)
  }

  @Test func unwritableOutputFolderIsReported() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Fixtures.profile(in: scratch)
    // A regular file where a folder is needed fails even for root.
    let blocker = scratch.appendingPathComponent("blocker")
    try Data().write(to: blocker)
    let result = try Command.run(
      try Fixtures.executable(),
      [
        "encode", "--profile", profile.path, "--output", blocker.appendingPathComponent("out").path,
        try Fixtures.clip().path,
      ])
    #expect(result.status == 1)
    #expect(result.stderr.contains(blocker.path))
  }

  @Test func invalidProfileExitsTwoNamingTheField() throws {
    let scratch = try ScratchFolder.make()
    let profile = scratch.appendingPathComponent("bad.json")
    try Data(
      #"{"version": 1, "segment": {"duration": 4}, "video": [{"name": "a", "width": 641, "height": 360, "bitrate": 500000}]}"#
        .utf8
    )
    .write(to: profile)
    let result = try Command.run(
      try Fixtures.executable(), ["encode", "--profile", profile.path, try Fixtures.clip().path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("\(profile.path): $.video[0].width: must be even"))
  }

  /// What a pipeline's shell passes for `--profile <(make-profile)`: a pipe.
  /// Its relative paths (here the key file) are relative to the current folder.
  @Test func profileCanComeThroughAPipe() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Fixtures.profile(in: scratch, encryption: #"{"method": "aes-128", "key_file": "test.key"}"#)
    // A clearly marked test key: RFC 3602's case #1.
    let key = Data(Hex.decode("06a9214036b8a15b512e03d534120006") ?? [])
    try key.write(to: scratch.appendingPathComponent("test.key"))
    chmod(scratch.appendingPathComponent("test.key").path, 0o600)
    let output = scratch.appendingPathComponent("out")
    let result = try Command.run(
      "bash",
      [
        "-c", #"cd "$1" && exec "$0" encode --profile <(cat "$2") --output "$3" "$4""#,
        try Fixtures.executable(), scratch.path, profile.path, output.path, try Fixtures.clip().path,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    let keys = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("clip/keys").path)
    #expect(try keys.map { try Data(contentsOf: output.appendingPathComponent("clip/keys/\($0)")) } == [key], "\(keys)")
  }

  @Test func subtitleFileThatIsAFolderIsRejectedSayingSo() throws {
    let scratch = try ScratchFolder.make()
    let sidecar = scratch.appendingPathComponent("clip.en.vtt")
    try FileManager.default.createDirectory(at: sidecar, withIntermediateDirectories: true)
    let profile = scratch.appendingPathComponent("subtitles.json")
    try Data(
      """
      {"version": 1, "segment": {"duration": 1}, "video": [\(Fixtures.defaultRungs[1])],
       "subtitles": [{"name": "English", "language": "en", "file": "\(scratch.path)/{stem}.en.vtt"}]}
      """.utf8
    ).write(to: profile)
    let output = scratch.appendingPathComponent("out")
    let result = try Command.run(
      try Fixtures.executable(),
      ["encode", "--profile", profile.path, "--output", output.path, try Fixtures.clip().path])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("\(sidecar.path): cannot read the subtitle file of track \"English\" (it is a folder)"),
      "\(result.stderr)")
    expectNothingPublished(output)
  }

  @Test func existingAssetIsKeptUnlessForced() throws {
    let first = try encode(try Fixtures.clip().path)
    #expect(first.result.status == 0)
    let report = first.output.appendingPathComponent("clip/report.json")
    let before = try Data(contentsOf: report)

    let profile = first.output.deletingLastPathComponent().appendingPathComponent("profile.json")
    let again = try Command.run(
      try Fixtures.executable(),
      ["encode", "--profile", profile.path, "--output", first.output.path, try Fixtures.clip().path])
    #expect(again.status == 1)
    #expect(again.stderr.contains("already exists"))
    #expect(try Data(contentsOf: report) == before)

    let forced = try Command.run(
      try Fixtures.executable(),
      ["encode", "--profile", profile.path, "--output", first.output.path, "--force", try Fixtures.clip().path])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(try Data(contentsOf: report) != before, "a new key and new IVs make a new report")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: first.output.path).filter { $0.hasPrefix(".") }
    #expect(leftovers.isEmpty)
  }

  @Test func oneBadInputDoesNotStopTheOthers() throws {
    let scratch = try ScratchFolder.make()
    let profile = try Fixtures.profile(in: scratch)
    let output = scratch.appendingPathComponent("out")
    let result = try Command.run(
      try Fixtures.executable(),
      ["encode", "--profile", profile.path, "--output", output.path, "/nonexistent/a.mp4", try Fixtures.clip().path])
    #expect(result.status == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == ["clip"])
  }

  /// Asset folders are told apart by their bytes: the NFC and NFD spellings of
  /// "café" are two files and two folders on Linux, though Swift's == calls them equal.
  @Test func assetNamesDifferingOnlyInUnicodeNormalizationAreTwoAssets() throws {
    let output = URL(fileURLWithPath: "/out")
    let composed = URL(fileURLWithPath: "/in/caf\u{E9}.mp4"), decomposed = URL(fileURLWithPath: "/in/cafe\u{301}.mp4")
    let folders = try Packager.destinations(for: [composed, decomposed], output: output)
    #expect(folders.map { Array($0.lastPathComponent.utf8) } == [Array("caf\u{E9}".utf8), Array("cafe\u{301}".utf8)])
    #expect(throws: PackError.self) {
      try Packager.destinations(for: [composed, URL(fileURLWithPath: "/x/caf\u{E9}.mkv")], output: output)
    }
  }

}
