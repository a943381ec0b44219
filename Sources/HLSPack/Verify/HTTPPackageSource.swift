import Foundation
import HLSPackCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A package on a web server, read as a client reads it: every path is
/// resolved against the package folder's URL (RFC 3986 §5.2), query kept.
/// Segments are streamed, never held whole; a redirect to another host is
/// not followed (`HTTPTransfer`).
public struct HTTPPackageSource: PackageSource {
  /// The package folder's URL, ending in "/".
  public let folder: URL
  public var root: String { folder.absoluteString }

  public init(folder: URL) { self.folder = folder }

  private func url(_ path: String) throws(SourceFailure) -> URL {
    if let outside = Self.outsideByName(path) { throw outside }
    guard let url = URL(string: path, relativeTo: folder)?.absoluteURL else {
      throw .unreadable("(not a valid URL)")
    }
    return url
  }

  /// Starts a request and waits for a successful status.
  private func start(_ path: String, method: String = "GET", range: Range<Int>? = nil) throws(SourceFailure)
    -> (HTTPTransfer, HTTPURLResponse)
  {
    let transfer = HTTPTransfer(try url(path), method: method, range: range)
    let response = try transfer.waitForResponse()
    switch response.statusCode {
    case 200..<300: return (transfer, response)
    case 404, 410:
      transfer.cancel()
      throw .missing
    default:
      transfer.cancel()
      throw .unreadable("(HTTP status \(response.statusCode))")
    }
  }

  public func readWhole(_ path: String, limit: Int) throws(SourceFailure) -> [UInt8] {
    let (transfer, response) = try start(path)
    defer { transfer.cancel() }
    if response.expectedContentLength > limit { throw Self.tooLarge(response.expectedContentLength, limit: limit) }
    var bytes: [UInt8] = []
    while let piece = try transfer.next() {
      guard bytes.count + piece.count <= limit else {
        throw Self.tooLarge(Int64(bytes.count + piece.count), limit: limit)
      }
      bytes += piece
    }
    return bytes
  }

  /// From a HEAD request's Content-Length, else by counting a GET's body.
  public func size(_ path: String) throws(SourceFailure) -> Int {
    let (_, response) = try start(path, method: "HEAD")
    if response.expectedContentLength >= 0 { return Int(response.expectedContentLength) }
    let (transfer, _) = try start(path)
    var count = 0
    while let piece = try transfer.next() { count += piece.count }
    return count
  }

  public func permissions(_ path: String) -> mode_t? { nil }

  public func stream(_ path: String, _ consume: ([UInt8]) throws -> Void) throws {
    let (transfer, _) = try start(path)
    defer { transfer.cancel() }
    while let piece = try transfer.next() { try consume([UInt8](piece)) }
  }

  /// With a Range request; a server that ignores it (200, the whole body)
  /// is read up to the range's end, keeping only the range.
  public func read(_ path: String, range: Range<Int>) throws(SourceFailure) -> [UInt8] {
    let (transfer, response) = try start(path, range: range)
    defer { transfer.cancel() }
    let bodyStart = response.statusCode == 206 ? range.lowerBound : 0
    var bytes: [UInt8] = []
    var position = bodyStart
    while position < range.upperBound, let data = try transfer.next() {
      let piece = [UInt8](data)
      let pieceRange = position..<(position + piece.count)
      let wanted = pieceRange.clamped(to: range)
      if !wanted.isEmpty {
        bytes += piece[(wanted.lowerBound - position)..<(wanted.upperBound - position)]
      }
      position += piece.count
    }
    guard bytes.count == range.count else {
      throw .unreadable("(it ends before byte \(range.lowerBound + bytes.count))")
    }
    return bytes
  }

  private static func tooLarge(_ size: Int64, limit: Int) -> SourceFailure {
    .unreadable("(\(size) bytes or more, larger than \(limit) bytes)")
  }
}
