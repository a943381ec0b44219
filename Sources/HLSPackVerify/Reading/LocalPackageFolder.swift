import Foundation
import HLSPackCore

import HLSPackPackage

/// A package in a local folder. Nothing outside the folder is read: a path
/// that climbs above it, or that a symbolic link leads out of, is refused
/// before anything is opened (`PackageFiles.resolveInside`), and so is
/// anything but a regular file (a named pipe's reads wait for a writer).
public struct LocalPackageFolder: PackageSource {
  public let folder: URL
  public var root: String { folder.path + "/" }

  public init(folder: URL) { self.folder = folder }

  /// The real path of the regular file `path` names inside the folder.
  private func resolve(_ path: String) throws(SourceFailure) -> String {
    if let outside = Self.outsideByName(path) { throw outside }
    let url = folder.appendingPathComponent(VerifyPaths.stripQuery(path))
    switch PackageFiles.resolveInside(url, package: folder) {
    case .missing: throw .missing
    case .outside(let real): throw .outside("to \(real), outside the package; not read")
    case .notRegular(let kind): throw .unreadable("(not a regular file: \(kind))")
    case .inside(let real): return real
    }
  }

  public func readWhole(_ path: String, limit: Int) throws(SourceFailure) -> [UInt8] {
    let real = try resolve(path)
    do {
      return try SmallFile.readRegular(real, limit: limit, followingLinks: false)
    } catch {
      throw .unreadable(error.reason)
    }
  }

  public func size(_ path: String) throws(SourceFailure) -> Int {
    var info = stat()
    guard stat(try resolve(path), &info) == 0 else { throw .missing }
    return Int(info.st_size)
  }

  public func permissions(_ path: String) -> mode_t? {
    var info = stat()
    guard let real = try? resolve(path), stat(real, &info) == 0 else { return nil }
    return info.st_mode & 0o777
  }

  static let readSize = 1 << 20

  /// Pieces of 1 MiB, read into one reused buffer.
  public func stream(_ path: String, _ consume: ([UInt8]) throws -> Void) throws {
    let descriptor = try open(path)
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: Self.readSize)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw SourceFailure.unreadable(SystemError.last.quoted) }
      guard count > 0 else { return }
      try consume(count == buffer.count ? buffer : Array(buffer[0..<count]))
    }
  }

  public func read(_ path: String, range: Range<Int>) throws(SourceFailure) -> [UInt8] {
    let descriptor = try open(path)
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: range.count)
    var done = 0
    while done < range.count {
      let count = bytes.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress.map { $0 + done }, range.count - done, off_t(range.lowerBound + done))
      }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw .unreadable(SystemError.last.quoted) }
      guard count > 0 else { throw .unreadable("(it ends before byte \(range.lowerBound + done))") }
      done += count
    }
    return bytes
  }

  /// Opened without following a link, and checked to be the regular file
  /// that was resolved: it may have been swapped since.
  private func open(_ path: String) throws(SourceFailure) -> Int32 {
    let real = try resolve(path)
    let descriptor = Glibc.open(real, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .unreadable(SystemError.last.quoted) }
    guard (try? FileStatus(descriptor: descriptor))?.kind == .regular else {
      close(descriptor)
      throw .unreadable("(no longer a regular file)")
    }
    return descriptor
  }
}
