import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

/// `hlspack rewrite-keys` on hostile or damaged packages: key URIs and links
/// that lead outside the package, named pipes and devices, leftovers of a
/// killed run, oversized and malformed files. Nothing outside the package is
/// read as a key or written, nothing blocks, and no key byte is printed.
@Suite("hlspack rewrite-keys on hostile packages")
struct RewriteKeysHardeningTests {
  let cli = RewriteKeysTests()
  /// A key that must never be read, copied or printed: it lies outside the package.
  static let secret = Array("outside-secret!!".utf8)

  /// `scratch/package/index.m3u8` with one key tag (line 4) whose URI
  /// attribute is `uriAttribute`, one segment, and the key `k.key`; and
  /// `scratch/outside/secret.bin`, 16 bytes that are not the package's.
  func package(uriAttribute: String = #"URI="k.key""#, _ name: String = #function) throws -> (
    package: URL, outside: URL
  ) {
    let scratch = try ScratchFolder.make(name)
    let package = scratch.appendingPathComponent("package")
    let outside = scratch.appendingPathComponent("outside")
    for folder in [package, outside] {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    let playlist = """
      #EXTM3U
      #EXT-X-VERSION:3
      #EXT-X-TARGETDURATION:2
      #EXT-X-KEY:METHOD=AES-128,\(uriAttribute)
      #EXTINF:2.0,
      seg0.ts
      #EXT-X-ENDLIST

      """
    try Data(playlist.utf8).write(to: package.appendingPathComponent("index.m3u8"))
    try Data(repeating: 0x47, count: 188).write(to: package.appendingPathComponent("seg0.ts"))
    try Data((0..<16).map { UInt8($0) }).write(to: package.appendingPathComponent("k.key"))
    try Data(Self.secret).write(to: outside.appendingPathComponent("secret.bin"))
    return (package, outside)
  }

  /// Every file below `folder` (links not followed) with its bytes; a link as its target.
  func contents(_ folder: URL) throws -> [String: Data] {
    var entries: [String: Data] = [:]
    for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
      let url = folder.appendingPathComponent(path)
      let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
      switch attributes[.type] as? FileAttributeType {
      case .typeSymbolicLink?:
        entries[path] = Data(try FileManager.default.destinationOfSymbolicLink(atPath: url.path).utf8)
      case .typeRegular?: entries[path] = try Data(contentsOf: url)
      default: entries[path] = Data()
      }
    }
    return entries
  }

  func expectNoKeyPrinted(_ result: CommandResult, sourceLocation: SourceLocation = #_sourceLocation) {
    for text in [result.text, result.stderr] {
      #expect(
        !text.contains(String(decoding: Self.secret, as: UTF8.self)), "key bytes printed",
        sourceLocation: sourceLocation)
      #expect(!text.lowercased().contains(Hex.encode(Self.secret)), "key bytes printed", sourceLocation: sourceLocation)
    }
  }

  // MARK: - Key URIs that lead outside the package

  /// `../`, `%2e%2e/`, an absolute file: URI and a link in the package all
  /// reached a file elsewhere and copied it into the package as its key.
  @Test(arguments: [
    "../outside/secret.bin", "%2e%2e/outside/secret.bin", "file://{outside}/secret.bin", "keys/link.key",
  ])
  func keyURIsLeadingOutsideThePackageAreNeverRead(uri: String) throws {
    let (package, outside) = try package(uriAttribute: "URI=\"\(uri)\"", "outside\(uri.count)")
    let resolvedURI = uri.replacingOccurrences(of: "{outside}", with: outside.path)
    let playlist = package.appendingPathComponent("index.m3u8")
    try Data(try String(contentsOf: playlist, encoding: .utf8).replacingOccurrences(of: uri, with: resolvedURI).utf8)
      .write(to: playlist)
    try FileManager.default.createDirectory(
      at: package.appendingPathComponent("keys"), withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      at: package.appendingPathComponent("keys/link.key"),
      withDestinationURL: outside.appendingPathComponent("secret.bin"))
    let before = try contents(package)

    for template in ["{key_file}", "skd://{key_id}"] {
      let refused = try cli.rewrite(package, template)
      #expect(refused.status == 1, "\(template): \(refused.stderr)")
      #expect(refused.stderr.contains("\(playlist.path): line 4: URI \"\(resolvedURI)\""), "\(refused.stderr)")
      #expect(refused.stderr.contains("outside the package"), "\(refused.stderr)")
      expectNoKeyPrinted(refused)
      #expect(try contents(package) == before, "nothing written")
    }
    // A template that needs no key rewrites the URI and says the file was not read.
    let rewritten = try cli.rewrite(package, "myapp-key://{asset}")
    #expect(rewritten.status == 0, "\(rewritten.stderr)")
    #expect(
      rewritten.stderr.contains("warning: \(playlist.path): line 4: key URI \"\(resolvedURI)\""), "\(rewritten.stderr)")
    #expect(rewritten.stderr.contains("not read"), "\(rewritten.stderr)")
    expectNoKeyPrinted(rewritten)
    let copies = try contents(package).filter { $0.value == Data(Self.secret) }
    #expect(copies.isEmpty, "the outside key was copied to \(copies.keys.sorted())")
  }

  /// A link that stays inside the package is followed as before.
  @Test func aLinkInsideThePackageStillLeadsToItsKey() throws {
    let (package, _) = try package(uriAttribute: #"URI="alias.key""#)
    try FileManager.default.createSymbolicLink(
      atPath: package.appendingPathComponent("alias.key").path, withDestinationPath: "k.key")
    let result = try cli.rewrite(package, "{key_file}")
    #expect(result.status == 0, "\(result.stderr)")
    let manifest = try cli.manifest(package)
    let keyFile = try #require(manifest.keys.first).keyFile
    #expect(try Data(contentsOf: package.appendingPathComponent(keyFile)) == Data((0..<16).map { UInt8($0) }))
  }

  // MARK: - Symbolic links the run would write through or copy

  /// `keys` linked to a folder elsewhere: key files were written through the
  /// link, in place and (the link copied) from an --output copy.
  @Test func aLinkedKeysFolderIsNeverWrittenThrough() throws {
    let (package, outside) = try package()
    try FileManager.default.createSymbolicLink(at: package.appendingPathComponent("keys"), withDestinationURL: outside)
    let before = try contents(package)
    let outsideBefore = try contents(outside)

    let inPlace = try cli.rewrite(package, "{key_file}")
    #expect(inPlace.status == 1, "\(inPlace.stderr)")
    #expect(inPlace.stderr.contains("\(package.path)/keys: is a symbolic link"), "\(inPlace.stderr)")
    #expect(try contents(package) == before, "the package is as it was, no temporary left")

    let output = package.deletingLastPathComponent().appendingPathComponent("copy")
    let copied = try cli.rewrite(package, "{key_file}", output: output)
    #expect(copied.status == 1, "\(copied.stderr)")
    #expect(
      copied.stderr.contains("\(package.path)/keys") && copied.stderr.contains("symbolic link"), "\(copied.stderr)")
    #expect(!FileManager.default.fileExists(atPath: output.path))
    #expect(try contents(outside) == outsideBefore, "written outside the package")
    let hidden = try FileManager.default.contentsOfDirectory(atPath: package.deletingLastPathComponent().path).filter {
      $0.hasPrefix(".")
    }
    #expect(hidden.isEmpty, "\(hidden)")
  }

  /// --output never copies a link into the new package, even one that a
  /// rewrite would not write through: the copy could lead anywhere.
  @Test func outputRefusesEveryLinkAndNamesThem() throws {
    let (package, outside) = try package()
    try FileManager.default.createSymbolicLink(
      at: package.appendingPathComponent("seg1.ts"), withDestinationURL: outside)
    try FileManager.default.createSymbolicLink(
      atPath: package.appendingPathComponent("same.ts").path, withDestinationPath: "seg0.ts")
    let output = package.deletingLastPathComponent().appendingPathComponent("copy")
    let result = try cli.rewrite(package, "{key_file}", output: output)
    #expect(result.status == 1, "\(result.stderr)")
    for name in ["seg1.ts", "same.ts"] {
      #expect(result.stderr.contains(package.appendingPathComponent(name).path), "\(result.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }

  // MARK: - Named pipes, devices and oversized files

  /// A named pipe in the package blocked the --output copy for ever, holding
  /// the lock SIGTERM's cleanup needs (the old run is killed by `timeout`).
  @Test func namedPipesAreSkippedNamedAndNeverOpened() throws {
    let (package, _) = try package()
    #expect(mkfifo(package.appendingPathComponent("feed.ts").path, 0o644) == 0)
    #expect(mkfifo(package.appendingPathComponent("live.m3u8").path, 0o644) == 0)
    let output = package.deletingLastPathComponent().appendingPathComponent("copy")
    let copied = try cli.rewrite(package, "{key_file}", output: output)
    #expect(copied.status == 0, "\(copied.stderr)")
    for name in ["feed.ts", "live.m3u8"] {
      #expect(copied.stderr.contains("\(package.appendingPathComponent(name).path) (a named pipe)"), "\(copied.stderr)")
      #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent(name).path))
    }
    let inPlace = try cli.rewrite(package, "{key_file}")
    #expect(inPlace.status == 0 && inPlace.stderr.contains("feed.ts (a named pipe)"), "\(inPlace.stderr)")
  }

  /// SIGTERM during an --output copy: with a named pipe in the package the
  /// copy blocked holding the lock the signal's cleanup needs, so the run
  /// could not be stopped, and SIGKILL then left the staging folder.
  @Test func sigtermStopsAnOutputCopyAndLeavesNoStagingFolder() throws {
    let (package, _) = try package()
    #expect(mkfifo(package.appendingPathComponent("feed.ts").path, 0o644) == 0)
    let big = package.appendingPathComponent("big.ts")
    #expect(FileManager.default.createFile(atPath: big.path, contents: nil) && truncate(big.path, 32 << 20) == 0)
    let output = package.deletingLastPathComponent().appendingPathComponent("copy")
    let launcher = InterruptTests()
    let process = try launcher.start(["rewrite-keys", package.path, "--uri", "{key_file}", "--output", output.path])
    let parent = output.deletingLastPathComponent()
    while process.isRunning, launcher.hidden(in: parent).isEmpty { usleep(1000) }
    if process.isRunning { kill(process.processIdentifier, SIGTERM) }
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning, Date() < deadline { usleep(10_000) }
    if process.isRunning {
      Issue.record("SIGTERM did not stop the run in 60 s")
      kill(process.processIdentifier, SIGKILL)
    }
    process.waitUntilExit()
    #expect([0, 130].contains(process.terminationStatus) && process.terminationReason == .exit)
    #expect(launcher.hidden(in: parent).isEmpty, "left behind: \(launcher.hidden(in: parent))")
  }

  /// keys.json as a named pipe or a link to /dev/zero was "permission denied";
  /// one far too large was read whole.
  @Test(arguments: ["pipe", "zero", "large"])
  func aKeysManifestThatIsNotARegularFileSaysWhatItIs(kind: String) throws {
    let (package, _) = try package("manifest-\(kind)")
    let manifest = package.appendingPathComponent("keys.json")
    switch kind {
    case "pipe": #expect(mkfifo(manifest.path, 0o644) == 0)
    case "zero": try FileManager.default.createSymbolicLink(atPath: manifest.path, withDestinationPath: "/dev/zero")
    default:
      // Sparse: 1 GiB that takes no room.
      #expect(
        FileManager.default.createFile(atPath: manifest.path, contents: nil) && truncate(manifest.path, 1 << 30) == 0)
    }
    let result = try cli.rewrite(package, "{key_file}")
    #expect(result.status == 1)
    let expected = [
      "pipe": "not a regular file: a named pipe", "zero": "not a regular file: a character device",
      "large": "larger than",
    ]
    #expect(result.stderr.contains("\(manifest.path): cannot read"), "\(result.stderr)")
    #expect(result.stderr.contains(expected[kind] ?? "?"), "\(result.stderr)")
  }

  /// A playlist was read whole without a bound (62 MiB: 26 s, 842 MiB).
  @Test func anOversizedPlaylistIsRefusedWithItsSize() throws {
    let (package, _) = try package()
    let huge = package.appendingPathComponent("huge.m3u8")
    #expect(FileManager.default.createFile(atPath: huge.path, contents: nil) && truncate(huge.path, 17 << 20) == 0)
    let result = try cli.rewrite(package, "{key_file}")
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("\(huge.path): cannot read the playlist (\(17 << 20) bytes, larger than 16 MiB)"),
      "\(result.stderr)")
  }

  // MARK: - Leftovers of a killed run, malformed tags, key bytes in URIs

  /// The temporaries an in-place run killed with SIGKILL leaves were neither
  /// named by later runs nor kept out of --output copies.
  @Test func temporariesOfAKilledRunAreNamedAndNeverCopied() throws {
    let (package, _) = try package()
    try FileManager.default.createDirectory(
      at: package.appendingPathComponent("keys"), withIntermediateDirectories: false)
    let leftovers = [".index.m3u8.rewrite-1A2B3C4D", "keys/.0123.key.previous-DEADBEEF"]
    for name in leftovers { try Data(Self.secret).write(to: package.appendingPathComponent(name)) }
    let output = package.deletingLastPathComponent().appendingPathComponent("copy")
    let copied = try cli.rewrite(package, "{key_file}", output: output)
    #expect(copied.status == 0, "\(copied.stderr)")
    for name in leftovers {
      #expect(copied.stderr.contains(package.appendingPathComponent(name).path), "\(copied.stderr)")
      #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent(name).path), "\(name) copied")
    }
    #expect(copied.stderr.contains("were not copied"), "\(copied.stderr)")
    let inPlace = try cli.rewrite(package, "{key_file}")
    #expect(
      inPlace.status == 0 && inPlace.stderr.contains(package.appendingPathComponent(leftovers[0]).path),
      "\(inPlace.stderr)")
  }

  /// `URI=k.key` without quotes was left as it is, silently, with exit 0.
  @Test func anUnquotedKeyURIIsNamedInAWarning() throws {
    let (package, _) = try package(uriAttribute: "URI=k.key")
    let result = try cli.rewrite(package, "{key_file}")
    #expect(result.status == 0, "\(result.stderr)")
    let playlist = package.appendingPathComponent("index.m3u8").path
    #expect(
      result.stderr.contains("warning: \(playlist): line 4: URI=k.key is not a quoted string"), "\(result.stderr)")
  }

  /// A data: URI carries the key itself; the warning for it printed it.
  @Test func aDataURIKeyIsNeverPrinted() throws {
    let encoded = Data(Self.secret).base64EncodedString()
    let (package, _) = try package(uriAttribute: "URI=\"data:text/plain;base64,\(encoded)\"")
    let result = try cli.rewrite(package, "myapp-key://{asset}")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("line 4: key URI \"data:…\""), "\(result.stderr)")
    #expect(!result.stderr.contains(encoded), "key bytes printed: \(result.stderr)")
    let refused = try cli.rewrite(package, "{key_file}")
    #expect(refused.status == 1 && !refused.stderr.contains(encoded), "\(refused.stderr)")
  }
}
