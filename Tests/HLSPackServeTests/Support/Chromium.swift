import Foundation
import HLSPackTestSupport
import Testing

/// Headless Chromium playing a URL in its own HLS player, through
/// scripts/chromium-play (PyPI's playwright driving Debian's `chromium`).
enum Chromium {
  /// What the page saw; the names are scripts/chromium-play's JSON keys.
  struct Playback: Decodable {
    struct MediaError: Decodable {
      var code: Int
      var message: String
    }
    struct Event: Decodable {
      var event: String
      var time: Double
    }
    var canPlay: String
    var userAgent: String
    var events: [Event]
    var currentTime: Double
    var duration: Double?
    var ended: Bool
    var error: MediaError?
    var decodedFrames: Int
    var videoWidth: Int
    var videoHeight: Int
    var audioDecodedBytes: Int

    var summary: String {
      "\(events.map { "\($0.event)@\($0.time)" }) at \(currentTime) s, error \(error.map { "\($0.code) \($0.message)" } ?? "none")"
    }
  }

  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/chromium-play")

  /// Whether both `chromium` and the playwright module of `python3` are installed.
  static let isAvailable: Bool = {
    guard (try? Command.which("chromium")) != nil else { return false }
    return (try? Command.run("python3", ["-c", "import playwright"]).status) == 0
  }()

  static let skipMessage: Comment =
    "needs chromium on PATH and playwright in python3 (scripts/install-peers installs both)"

  /// Whether NSS's `certutil` (Debian's libnss3-tools) is installed, to make Chromium trust an authority.
  static let canTrustAuthorities: Bool = (try? Command.which("certutil")) != nil

  static let trustSkipMessage: Comment =
    "needs chromium, playwright and certutil (scripts/install-peers installs libnss3-tools)"

  /// A HOME whose NSS database (.pki/nssdb, where Chromium on Linux looks) trusts
  /// the authority at `certificate` for TLS servers, and nothing else.
  static func home(trusting certificate: String) throws -> URL {
    let home = try ScratchFolder.make("chromium-home")
    let database = home.appendingPathComponent(".pki/nssdb")
    try FileManager.default.createDirectory(at: database, withIntermediateDirectories: true)
    for arguments in [
      ["-N", "--empty-password"], ["-A", "-t", "C,,", "-n", "hlspack serve authority", "-i", certificate],
    ] {
      let run = try Command.run("certutil", ["-d", "sql:" + database.path] + arguments)
      guard run.status == 0 else { throw FixtureError("certutil \(arguments.joined(separator: " ")): \(run.stderr)") }
    }
    return home
  }

  /// What scripts/chromium-page saw of a page; the names are its JSON keys.
  struct Page: Decodable {
    var status: Int?
    var contentType: String?
    var navigationError: String?
    var title: String?
    var sectionIds: [String]
    var consoleErrors: [String]
    var failedRequests: [String]
  }

  static let pageScript = script.deletingLastPathComponent().appendingPathComponent("chromium-page")

  /// Opens `url` as a page and waits for its load event; `screenshot` gets a PNG of its first screen.
  static func open(_ url: String, screenshot: URL? = nil) throws -> Page {
    let run = try Command.run(
      "python3", [pageScript.path, url] + (screenshot.map { ["--screenshot", $0.path] } ?? []))
    guard run.status == 0 else { throw FixtureError("chromium-page \(url) failed: \(run.stderr)") }
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    do {
      return try decoder.decode(Page.self, from: run.stdout)
    } catch {
      throw FixtureError("chromium-page \(url): \(error) in \(run.text)")
    }
  }

  /// Plays `url` until it ends, fails, or `timeout` seconds pass; `home` is the browser's HOME.
  static func play(_ url: String, timeout: Int = 60, home: URL? = nil) throws -> Playback {
    let run = try Command.run(
      "python3", [script.path, url, "--timeout", String(timeout)] + (home.map { ["--home", $0.path] } ?? []))
    guard run.status == 0 else { throw FixtureError("chromium-play \(url) failed: \(run.stderr)") }
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    do {
      return try decoder.decode(Playback.self, from: run.stdout)
    } catch {
      throw FixtureError("chromium-play \(url): \(error) in \(run.text)")
    }
  }
}
