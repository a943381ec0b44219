import Foundation
import HLSPackTestSupport
import Testing

/// `hlspack rewrite-keys` errors: bad templates, unknown or ambiguous keys,
/// failed and refused writes, which leave the package as it was.
extension RewriteKeysTests {
  @Test(arguments: [
    ("data:text/plain,{key_id}", "data: URI"), ("{nope}", "unknown placeholder {nope}"),
    ("my_app://{key_id}", "not a valid URI scheme"),
    ("", "must not be empty"),
  ])
  func invalidTemplateExitsTwoAndTouchesNothing(template: String, message: String) throws {
    let (original, package, _) = try hlspackPackage("badtemplate")
    let result = try rewrite(package, template)
    #expect(result.status == 2)
    #expect(result.stderr.contains(message), "\(result.stderr)")
    try PackageDiff.expectOnlyKeyURIsChanged(before: original, after: package)
    #expect(try PackageDiff.files(in: original) == PackageDiff.files(in: package))
  }

  /// A package whose key URIs say nothing about where the key is.
  func packageWithUnknownKey() throws -> (original: URL, package: URL) {
    let (original, package, _) = try hlspackPackage("unknown")
    for path in try PackageDiff.playlists(in: package) {
      let url = package.appendingPathComponent(path)
      let text = try String(contentsOf: url, encoding: .utf8).replacing(
        /URI="[^"]*\.key"/, with: #"URI="myapp-key://legacy""#)
      try Data(text.utf8).write(to: url)
    }
    return (original, package)
  }

  @Test func unknownKeyFailsWhenTheTemplateNeedsItAndNamesThePlaylistAndURI() throws {
    let (_, package) = try packageWithUnknownKey()
    let before = try PackageDiff.copy(package)
    for template in ["skd://{key_id}", "{key_file}"] {
      let result = try rewrite(package, template)
      #expect(result.status == 1)
      #expect(result.stderr.contains("\(package.path)/high/"), "names a playlist of the rendition: \(result.stderr)")
      #expect(result.stderr.contains("myapp-key://legacy"))
      try PackageDiff.expectOnlyKeyURIsChanged(before: before, after: package)
      #expect(try PackageDiff.files(in: before) == PackageDiff.files(in: package), "nothing written")
      let manifest = "keys.json"
      #expect(
        (try? Data(contentsOf: before.appendingPathComponent(manifest)))
          == (try? Data(contentsOf: package.appendingPathComponent(manifest))))
    }
  }

  @Test func unknownKeyIsRewrittenWhenTheTemplateDoesNotNeedIt() throws {
    let (original, package) = try packageWithUnknownKey()
    let result = try rewrite(package, "myapp-key://{asset}/{rendition}")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("warning") && result.stderr.contains("myapp-key://legacy"))
    let uris = try PackageDiff.expectOnlyKeyURIsChanged(before: original, after: package)
    #expect(uris["low/index.m3u8"]?.allSatisfy { $0 == "myapp-key://clip/low" } == true)
  }

  @Test func twoKeysBehindOneURIAreRefused() throws {
    let (_, package, _) = try hlspackPackage()
    // Give the low rendition a key of its own.
    let other = package.appendingPathComponent("keys/other.key")
    #expect(try Command.run("openssl", ["rand", "-out", other.path, "16"]).status == 0)
    for name in ["index.m3u8", "iframes.m3u8"] {
      let low = package.appendingPathComponent("low/\(name)")
      let text = try String(contentsOf: low, encoding: .utf8).replacing(
        /URI="[^"]*"/, with: #"URI="../keys/other.key""#)
      try Data(text.utf8).write(to: low)
    }
    let before = try PackageDiff.copy(package)

    let shared = try rewrite(package, "skd://{asset}")
    #expect(shared.status == 1)
    #expect(
      shared.stderr.contains(
        "would both get URI \"skd://clip\"; add {key_id} or {rendition} or {period} to the template"),
      "\(shared.stderr)")
    // The hint names only what the template lacks.
    let perPeriod = try rewrite(package, "skd://{asset}/{period}")
    #expect(perPeriod.status == 1)
    #expect(
      perPeriod.stderr.contains("would both get URI \"skd://clip/0\"; add {key_id} or {rendition} to the template"),
      "\(perPeriod.stderr)")
    try PackageDiff.expectOnlyKeyURIsChanged(before: before, after: package)
    // Per rendition is fine: each rendition has one key.
    #expect(try rewrite(package, "skd://{asset}/{rendition}").status == 0)
    #expect(Set(try manifest(package).keys.map(\.keyID)).count == 2)
  }

  /// Whether `chattr +i` works here (root on ext4 and the like), to make a
  /// folder refuse new files.
  static let canFreezeFolders: Bool = {
    guard let folder = try? ScratchFolder.make("freeze"),
      (try? Command.run("chattr", ["+i", folder.path]))?.status == 0
    else { return false }
    return (try? Command.run("chattr", ["-i", folder.path]))?.status == 0
  }()

  /// A write that fails part way (one audio folder refuses new files) must
  /// leave the package exactly as it was, so that a second run can still find
  /// every key (before, some playlists carried the new URIs while
  /// master.m3u8 and keys.json kept the old ones).
  @Test(.enabled(if: canFreezeFolders, "needs chattr +i (root on ext4)"))
  func inPlaceRewriteThatFailsLeavesThePackageAsItWas() throws {
    let (_, package, _) = try hlspackPackage()
    let before = try PackageDiff.copy(package)
    let frozen = package.appendingPathComponent("low")
    #expect(try Command.run("chattr", ["+i", frozen.path]).status == 0)
    let failed = try rewrite(package, "myapp-key://{asset}/{key_id}")
    #expect(try Command.run("chattr", ["-i", frozen.path]).status == 0)

    #expect(failed.status == 1)
    #expect(failed.stderr.contains("\(frozen.path)/"), "\(failed.stderr)")
    #expect(
      try FileManager.default.subpathsOfDirectory(atPath: package.path).sorted()
        == FileManager.default.subpathsOfDirectory(atPath: before.path).sorted(), "no file added or left behind")
    for path in try PackageDiff.files(in: before) {
      #expect(
        try Data(contentsOf: package.appendingPathComponent(path))
          == Data(contentsOf: before.appendingPathComponent(path)),
        "\(path) changed")
    }
    #expect(try rewrite(package, "{key_file}").status == 0)
    #expect(try rewrite(package, "myapp-key://{asset}/{key_id}").status == 0)
  }

  @Test func outputFolderIsRefusedWhenItExistsUnlessForced() throws {
    let (original, package, _) = try hlspackPackage()
    let output = package.deletingLastPathComponent().appendingPathComponent("taken")
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    let refused = try rewrite(package, "skd://{key_id}", output: output)
    #expect(refused.status == 1)
    #expect(refused.stderr.contains(output.path) && refused.stderr.contains("--force"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)

    let forced = try rewrite(package, "skd://{key_id}", output: output, force: true)
    #expect(forced.status == 0, "\(forced.stderr)")
    try PackageDiff.expectOnlyKeyURIsChanged(before: original, after: package)  // the source is untouched
    try PackageDiff.expectSegmentsUnchanged(before: original, after: output)
    // No staging folder is left beside the output.
    let siblings = try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path)
    #expect(!siblings.contains { $0.hasPrefix(".") }, "\(siblings)")

    let inside = try rewrite(package, "skd://{key_id}", output: package.appendingPathComponent("sub"))
    #expect(inside.status == 2)
    let forceAlone = try rewrite(package, "skd://{key_id}", force: true)
    #expect(forceAlone.status == 2)
    let itself = try rewrite(package, "skd://{key_id}", output: package, force: true)
    #expect(itself.status == 2 && itself.stderr.contains("is the package itself"), "\(itself.stderr)")
    // Also when a symbolic link leads into the package and the output folder is new.
    let link = package.deletingLastPathComponent().appendingPathComponent("current")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: package)
    let throughLink = try rewrite(package, "skd://{key_id}", output: link.appendingPathComponent("sub"))
    #expect(throughLink.status == 2 && throughLink.stderr.contains("is inside the package"), "\(throughLink.stderr)")
    try PackageDiff.expectOnlyKeyURIsChanged(before: original, after: package)
  }

  /// A copy made with --output holds its keys owner-only, whatever the source's
  /// mode, and other files with their own modes (a private file stays private).
  @Test func outputCopyWritesKeysOwnerOnly() throws {
    let (_, package, key) = try hlspackPackage()
    try Data("private".utf8).write(to: package.appendingPathComponent("private.txt"))
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o600], ofItemAtPath: package.appendingPathComponent("private.txt").path)
    let keysFolder = package.appendingPathComponent("keys")
    let name = try #require(
      try FileManager.default.contentsOfDirectory(atPath: keysFolder.path).first { $0.hasSuffix(".key") })
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o644], ofItemAtPath: keysFolder.appendingPathComponent(name).path)
    let output = package.deletingLastPathComponent().appendingPathComponent("owner-only")
    let result = try rewrite(package, "skd://{key_id}", output: output)
    #expect(result.status == 0, "\(result.stderr)")
    for entry in try manifest(output).keys {
      let file = output.appendingPathComponent(entry.keyFile)
      #expect(Array(try Data(contentsOf: file)) == key)
      #expect(
        try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600,
        "\(entry.keyFile)")
    }
    let copied = output.appendingPathComponent("private.txt").path
    #expect(try FileManager.default.attributesOfItem(atPath: copied)[.posixPermissions] as? Int == 0o600)
    let master = output.appendingPathComponent("master.m3u8").path
    #expect(try FileManager.default.attributesOfItem(atPath: master)[.posixPermissions] as? Int == 0o644)
  }

  /// The package folder may be given through a symbolic link (a `current` link to the latest build).
  @Test func packageGivenThroughASymbolicLink() throws {
    let (original, package, _) = try hlspackPackage()
    let link = package.deletingLastPathComponent().appendingPathComponent("current")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: package)
    let result = try rewrite(link, "skd://{key_id}")
    #expect(result.status == 0, "\(result.stderr)")
    let uris = try PackageDiff.expectOnlyKeyURIsChanged(before: original, after: package)
    #expect(!uris.isEmpty && uris.values.allSatisfy { $0.allSatisfy { $0.hasPrefix("skd://") } })
  }
}
