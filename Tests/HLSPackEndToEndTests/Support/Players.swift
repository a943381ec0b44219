import Foundation
import HLSPackTestSupport
import Testing

/// HLS clients that nobody here wrote, run when they are on PATH
/// (`scripts/install-peers` installs them). Each fetches a package over HTTP
/// and writes what it read into a file that the ffmpeg CLI then decodes.
enum Player: String, CaseIterable, Sendable {
  case vlc = "VLC"
  case streamlink
  case ytdlp = "yt-dlp"

  var executableName: String {
    switch self {
    case .vlc: "cvlc"
    case .streamlink: "streamlink"
    case .ytdlp: "yt-dlp"
    }
  }

  var path: String? { try? Command.which(executableName) }

  var skipMessage: Comment { "no \(executableName) on PATH: scripts/install-peers installs it" }

  /// Which packages the client can play at all: none of them has SAMPLE-AES,
  /// `cbcs` or FairPlay (skd:// keys only an app resolves).
  func plays(method: String) -> Bool { method == "none" || method == "aes-128" }

  /// Fetches the presentation at `master` into `folder`, each client choosing
  /// its best variant and staying on it (VLC told to, so that the whole
  /// timeline comes from one rendition); returns the file written and the
  /// client's log.
  func fetch(_ master: URL, into folder: URL) throws -> (file: URL, log: String) {
    let executable = try Command.which(executableName)
    switch self {
    case .vlc:
      let file = folder.appendingPathComponent("vlc.mkv")
      let run = try Self.runUnprivileged(
        executable,
        [
          "--no-video-title-show", "--play-and-exit", "--adaptive-logic=highest", "--sout-all",
          "--sout", "#std{access=file,mux=mkv,dst=\(file.path)}", master.absoluteString,
        ],
        home: folder)
      return (file, run.stderr)
    case .streamlink:
      let file = folder.appendingPathComponent("streamlink.ts")
      let run = try Self.bounded(
        executable, ["--loglevel", "warning", "-o", file.path, "hls://\(master.absoluteString)", "best"])
      guard run.status == 0 else { throw FixtureError("streamlink: \(run.stderr)") }
      return (file, run.stderr)
    case .ytdlp:
      let run = try Self.bounded(
        executable,
        [
          "--no-warnings", "--no-part", "--write-subs", "-P", folder.path, "-o", "yt-dlp.%(ext)s",
          master.absoluteString,
        ])
      guard run.status == 0 else { throw FixtureError("yt-dlp: \(run.stderr)") }
      // The container is yt-dlp's choice (MP4, or Matroska for some codecs); subtitles are beside it.
      let name = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        .first { $0.hasPrefix("yt-dlp.") && !$0.hasSuffix(".vtt") }
      guard let name else { throw FixtureError("yt-dlp wrote no media file: \(run.stderr)") }
      return (folder.appendingPathComponent(name), run.stderr)
    }
  }

  /// What VLC shows of the presentation at `master`, subtitles drawn into
  /// the pictures (its own renderer, as on screen), re-encoded at a fixed
  /// quantiser without sound into `file`: the same presentation without a
  /// subtitle rendition gives the same pictures but for the text.
  static func vlcPictures(of master: URL, into file: URL) throws {
    let run = try runUnprivileged(
      try Command.which(Player.vlc.executableName),
      [
        "--no-video-title-show", "--play-and-exit", "--adaptive-logic=highest", "--sub-track=0", "--sout",
        "#transcode{vcodec=h264,venc=x264{preset=ultrafast,qp=12},soverlay,acodec=none}:std{access=file,mux=mp4,dst=\(file.path)}",
        master.absoluteString,
      ],
      home: file.deletingLastPathComponent())
    guard FileManager.default.fileExists(atPath: file.path) else {
      throw FixtureError("VLC wrote no \(file.lastPathComponent): \(run.stderr)")
    }
  }

  /// VLC refuses to run as root: as root, it runs as nobody (65534), in a
  /// folder that user may write to.
  private static func runUnprivileged(_ executable: String, _ arguments: [String], home: URL) throws -> CommandResult {
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: home.path)
    guard getuid() == 0 else { return try bounded(executable, arguments) }
    let environment = ["HOME": home.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
    return try bounded(
      "setpriv", ["--reuid", "65534", "--regid", "65534", "--clear-groups", executable] + arguments,
      environment: environment)
  }

  /// A client that stalls is stopped after 5 minutes (the sample takes seconds).
  private static func bounded(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws
    -> CommandResult
  {
    // SIGKILL: children of the test process inherit its blocked SIGTERM.
    try Command.run("timeout", ["-s", "KILL", "300", executable] + arguments, environment: environment)
  }
}

/// `python3 -m http.server` on 127.0.0.1 and a port the system picks,
/// serving one folder for as long as the value lives.
final class LocalHTTPServer {
  let process = Process()
  let base: URL

  init(serving folder: URL) throws {
    process.executableURL = URL(fileURLWithPath: try Command.which("python3"))
    process.arguments = ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.path]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // "Serving HTTP on 127.0.0.1 port 41235 (http://127.0.0.1:41235/) ..."
    var text = ""
    while !text.contains("\n") {
      let data = out.fileHandleForReading.availableData
      guard !data.isEmpty else { break }
      text += String(decoding: data, as: UTF8.self)
    }
    guard let port = text.firstMatch(of: /port (\d+)/)?.1, let url = URL(string: "http://127.0.0.1:\(port)/") else {
      kill(process.processIdentifier, SIGKILL)
      throw FixtureError("python3 -m http.server did not start: \(text)")
    }
    base = url
  }

  func url(_ path: String) -> URL { base.appendingPathComponent(path) }

  deinit {
    // SIGKILL: the server inherits the test process's signal mask, which blocks SIGTERM.
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }
}
