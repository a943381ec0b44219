import Foundation
import HLSPackCore

/// Everything below a package folder, listed once with lstat(2): no symbolic
/// link is followed and nothing is opened, so a named pipe or a device in the
/// package can neither block the run nor be read.
struct PackageInventory {
  /// Package paths ("/"-separated) of folders, each after its parent.
  private(set) var folders: [String] = []
  /// Regular files other than `leftovers`.
  private(set) var files: [String] = []
  private(set) var links: [String] = []
  /// Named pipes, sockets and devices, with what each is ("a named pipe").
  private(set) var others: [(path: String, kind: String)] = []
  /// Hidden temporaries of an in-place rewrite that did not finish (killed
  /// with SIGKILL, a power cut) or is still running: new versions and copies
  /// of old ones, which may be key files.
  private(set) var leftovers: [String] = []

  init(of package: URL) throws {
    try walk(package, prefix: "")
  }

  /// Regular `.m3u8` files, sorted. A link to one is not a playlist of the
  /// package: renaming over it would replace the link, not what it points at.
  var playlists: [String] { files.filter { $0.lowercased().hasSuffix(".m3u8") } }

  private mutating func walk(_ folder: URL, prefix: String) throws {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    } catch {
      throw PackError.input(path: folder.path, reason: "cannot list the folder (\(error.localizedDescription))")
    }
    // The lock of an in-place rewrite (its own, or a running or killed one's): never a package file.
    for name in names where !(prefix.isEmpty && name == RewriteJournal.fileName) {
      let path = prefix + name
      let url = folder.appendingPathComponent(name)
      let kind: FileKind
      do {
        kind = try FileStatus(path: url.path, followingLinks: false).kind
      } catch {
        throw PackError.input(path: url.path, reason: "cannot read \(error.quoted)")
      }
      switch kind {
      case .folder:
        folders.append(path)
        try walk(url, prefix: path + "/")
      case .regular where FileTransaction.isTemporary(name):
        leftovers.append(path)
      case .regular:
        files.append(path)
      case .symbolicLink:
        links.append(path)
      default:
        others.append((path, kind.description))
      }
    }
  }

  /// Warnings for what the run leaves alone, each naming the files.
  func warnings(package: URL, copying: Bool) -> [String] {
    var warnings: [String] = []
    if !others.isEmpty {
      let list = others.map { "\(package.appendingPathComponent($0.path).path) (\($0.kind))" }.joined(separator: ", ")
      warnings.append("\(list): not regular files; skipped, never opened\(copying ? " nor copied" : "")")
    }
    if !leftovers.isEmpty {
      let list = leftovers.map { package.appendingPathComponent($0).path }.joined(separator: ", ")
      warnings.append(
        "\(list): temporaries left by another rewrite-keys run of this package, one still running or one that was killed; "
          + "they may hold keys\(copying ? " and were not copied" : ""): remove them once no other run is rewriting \(package.path)"
      )
    }
    return warnings
  }
}
