import Foundation
import HLSPack
import HLSPackCore
import HLSPackTestSupport
import Logging

/// Generated media and scratch folders for the end-to-end tests. The clip is
/// made once per test run by the ffmpeg CLI: 4 s of 640x360 25 fps H.264 with
/// 5.1 AAC, so the downmix to the profile's stereo is exercised too.
enum Fixtures {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var cachedClip: URL?

  /// Runs the ffmpeg CLI (overwriting its output), for sources and decodes; throws its errors.
  static func ffmpeg(_ arguments: [String]) throws {
    let made = try Command.run("ffmpeg", ["-v", "error", "-y"] + arguments)
    guard made.status == 0 else { throw FixtureError(made.stderr) }
  }

  static func clip() throws -> URL {
    try lock.withLock {
      if let cachedClip { return cachedClip }
      let folder = try ScratchFolder.make("clip")
      let url = folder.appendingPathComponent("clip.mp4")
      let result = try Command.run(
        "ffmpeg",
        [
          "-hide_banner", "-loglevel", "error", "-y",
          "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=4",
          "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4",
          "-filter_complex", "[1:a]pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0[a]",
          "-map", "0:v", "-map", "[a]",
          "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p",
          "-c:a", "aac", "-b:a", "192k", url.path,
        ])
      guard result.status == 0 else { throw FixtureError("ffmpeg could not make the clip: \(result.stderr)") }
      cachedClip = url
      return url
    }
  }

  static let clipFrames = 100

  /// Every rendition's segment entries of an asset's report.json, read as plain JSON.
  static func reportSegments(asset: URL) throws -> [[String: Any]] {
    let data = try Data(contentsOf: asset.appendingPathComponent("report.json"))
    guard let report = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let renditions = report["renditions"] as? [[String: Any]]
    else { throw FixtureError("report.json has no renditions") }
    return renditions.flatMap { ($0["segments"] as? [[String: Any]]) ?? [] }
  }

  /// A profile with 1 s segments; `encryption` is the JSON of the encryption object.
  static let defaultRungs = [
    #"{ "name": "high", "width": 640, "height": 360, "bitrate": 800000, "maxrate": 900000, "bufsize": 1800000, "profile": "high", "level": "3.0", "preset": "ultrafast" }"#,
    #"{ "name": "low", "width": 320, "height": 180, "bitrate": 300000, "profile": "main", "preset": "ultrafast" }"#,
  ]

  static func profile(
    in folder: URL, encryption: String = #"{"method": "aes-128"}"#, container: String = "ts", rungs: [String]? = nil
  ) throws -> URL {
    let text = """
      {
        "version": 1,
        "segment": { "duration": 1, "container": "\(container)" },
        "video": [\((rungs ?? defaultRungs).joined(separator: ", "))],
        "audio": { "codec": "aac", "bitrate": 96000, "channels": 2, "sample_rate": 48000 },
        "encryption": \(encryption)
      }
      """
    let url = folder.appendingPathComponent("profile.json")
    try Data(text.utf8).write(to: url)
    return url
  }

  /// Encodes `input` with the profile into `output` through the library.
  static func encode(profile: URL, input: URL, output: URL, replace: Bool = false) throws -> Packager.Outcome {
    let loaded = try ProfileLoader.load(contentsOf: profile)
    let packager = Packager(
      profile: loaded, output: output, replace: replace, progress: SilentProgress(), logger: Logger(label: "test"))
    let outcomes = try packager.run(inputs: [input])
    guard let outcome = outcomes.first else { throw FixtureError("no outcome") }
    return outcome
  }

  /// The built `hlspack` executable, next to the test bundle.
  /// Encodes `source` with one H.264 rung named `rung` into `scratch/out`
  /// (2 s segments, no encryption); the run and the asset folder.
  static func encodeOneRung(
    _ source: URL, rung: String, width: Int, height: Int, bitrate: Int, fields: String = "", in scratch: URL
  ) throws -> (run: CommandResult, asset: URL) {
    let profile = scratch.appendingPathComponent("one-rung.json")
    try Data(
      #"{"version": 1, "segment": {"duration": 2}, "video": [{"name": "\#(rung)", "width": \#(width), "height": \#(height), "bitrate": \#(bitrate), "preset": "ultrafast"\#(fields)}]}"#
        .utf8
    ).write(to: profile)
    let output = scratch.appendingPathComponent("out")
    let run = try Command.run(
      try executable(), ["encode", "--profile", profile.path, "--output", output.path, source.path])
    return (run, output.appendingPathComponent(source.deletingPathExtension().lastPathComponent))
  }

  /// hlspack run by bash after `prelude` (a umask, a limit, a folder to work in).
  static func hlspack(after prelude: String, _ arguments: [String]) throws -> CommandResult {
    try Command.run("bash", ["-c", #"\#(prelude) && exec "$0" "$@""#, try executable()] + arguments)
  }

  static func executable() throws -> String { try Command.builtHlspack() }
}
