import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

@testable import HLSPack

/// The all-or-nothing file changes under in-place `rewrite-keys`.
@Suite struct FileTransactionTests {
  /// A folder with `a.txt` (mode 0640) and `sub/b.txt`, as the "package".
  func folder(_ name: String = #function) throws -> URL {
    let root = try ScratchFolder.make(name)
    try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: false)
    try Data("old a\n".utf8).write(to: root.appendingPathComponent("a.txt"))
    try Data("old b\n".utf8).write(to: root.appendingPathComponent("sub/b.txt"))
    #expect(chmod(root.appendingPathComponent("a.txt").path, 0o640) == 0)
    return root
  }

  /// Every entry below `root`, hidden ones included: files with mode and bytes.
  func snapshot(_ root: URL) throws -> [String: String] {
    var entries: [String: String] = [:]
    for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) {
      let url = root.appendingPathComponent(path)
      let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
      guard attributes[.type] as? FileAttributeType != .typeDirectory else {
        entries[path] = "folder"
        continue
      }
      let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
      entries[path] = "\(String(mode, radix: 8)) \(try String(contentsOf: url, encoding: .utf8))"
    }
    return entries
  }

  @Test func everyFileChangesTogetherAndKeepsItsMode() throws {
    let root = try folder()
    try FileTransaction.run(in: root) { files in
      try files.write(Array("new a\n".utf8), to: root.appendingPathComponent("a.txt"))
      try files.makeFolder(root.appendingPathComponent("keys"))
      try files.write(Array("key\n".utf8), to: root.appendingPathComponent("keys/k.key"), newFileMode: 0o600)
      try files.write(Array("new b\n".utf8), to: root.appendingPathComponent("sub/b.txt"))
    }
    #expect(
      try snapshot(root) == [
        "a.txt": "640 new a\n", "keys": "folder", "keys/k.key": "600 key\n", "sub": "folder",
        "sub/b.txt": "644 new b\n",
      ])
  }

  /// As when a folder of the package is immutable or full: nothing changes,
  /// not even the files staged before the failure, and no temporary is left.
  @Test func aWriteThatFailsLeavesTheFolderAsItWas() throws {
    let root = try folder()
    let before = try snapshot(root)
    #expect(throws: PackError.self) {
      try FileTransaction.run(in: root) { files in
        try files.write(Array("new a\n".utf8), to: root.appendingPathComponent("a.txt"))
        try files.makeFolder(root.appendingPathComponent("keys"))
        try files.write(Array("key\n".utf8), to: root.appendingPathComponent("keys/k.key"), newFileMode: 0o600)
        try files.write(Array("new c\n".utf8), to: root.appendingPathComponent("missing/c.txt"))
      }
    }
    #expect(try snapshot(root) == before)
  }

  /// A rename that fails after others were done (here: the folder of the
  /// last file vanished) puts the replaced files back and removes new ones.
  @Test func aRenameThatFailsPutsBackWhatWasReplaced() throws {
    let root = try folder()
    let before = try snapshot(root)
    let error = #expect(throws: PackError.self) {
      try FileTransaction.run(in: root) { files in
        try files.write(Array("new a\n".utf8), to: root.appendingPathComponent("a.txt"))
        try files.write(Array("new c\n".utf8), to: root.appendingPathComponent("c.txt"))
        try files.write(Array("new b\n".utf8), to: root.appendingPathComponent("sub/b.txt"))
        try FileManager.default.removeItem(at: root.appendingPathComponent("sub"))
      }
    }
    #expect(error?.description.contains("no file was changed") == true, "\(String(describing: error))")
    var expected = before
    expected["sub"] = nil
    expected["sub/b.txt"] = nil
    #expect(try snapshot(root) == expected)
  }
}
