import Foundation
import HLSPackCore
import NIOCore

import NIOHTTP1

/// A package on a web server, read as a client reads it: every path is
/// resolved against the package folder's URL (RFC 3986 §5.2), query kept.
/// Segments are streamed, never held whole; a redirect is followed only on
/// the same scheme, host and port (another host is another publisher's
/// server, which the package does not name).
public struct HTTPPackageSource: PackageSource {
  /// The package folder's URL, ending in "/".
  public let folder: URL
  let session: HTTPSession
  /// Credentials of the URL are masked: the root is printed.
  public var root: String { URLCredentials.masked(folder.absoluteString) }

  init(folder: URL, session: HTTPSession) {
    self.folder = folder
    self.session = session
  }

  public var expired: String? { session.runExpired }

  private func url(_ path: String) throws(SourceFailure) -> URL {
    if let outside = Self.outsideByName(path) { throw outside }
    guard let url = URL(string: path, relativeTo: folder)?.absoluteURL else {
      throw .unreadable("(not a valid URL)")
    }
    return url
  }

  static let redirectLimit = 5

  /// Starts a request, follows same-origin redirects, and waits for a successful status.
  private func start(_ path: String, method: HTTPMethod = .GET, range: Range<Int>? = nil) throws(SourceFailure)
    -> (HTTPTransfer, HTTPResponseHead)
  {
    if let expired = session.runExpired { throw .unreadable("(\(expired))") }
    var target = try url(path)
    for _ in 0...Self.redirectLimit {
      let (transfer, head) = try send(target, method: method, range: range)
      switch head.status.code {
      case 200..<300: return (transfer, head)
      case 301, 302, 303, 307, 308:
        transfer.cancel()
        guard let location = head.headers.first(name: "Location"),
          let next = URL(string: location, relativeTo: target)?.absoluteURL
        else { throw .unreadable("(HTTP status \(head.status.code) without a usable Location)") }
        guard Self.sameOrigin(next, target) else {
          throw .outside(
            "to \(URLCredentials.masked(next.absoluteString)), another host (a redirect not followed)")
        }
        target = next
      case 404, 410:
        transfer.cancel()
        throw .missing
      default:
        transfer.cancel()
        throw .unreadable("(HTTP status \(head.status.code))")
      }
    }
    throw .unreadable("(more than \(Self.redirectLimit) redirects)")
  }

  /// One request, sent again once on a new connection when the first closed
  /// before any response (GET and HEAD are idempotent, RFC 9110 §9.2.2).
  private func send(_ url: URL, method: HTTPMethod, range: Range<Int>?) throws(SourceFailure)
    -> (HTTPTransfer, HTTPResponseHead)
  {
    for _ in 0..<2 {
      let transfer = try HTTPTransfer(session, url: url, method: method, range: range)
      if let head = try transfer.waitForResponse() { return (transfer, head) }
    }
    throw .unreadable("(the server closed the connection before a response, twice)")
  }

  static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
    a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
      && a.port == b.port
  }

  private static func contentLength(_ head: HTTPResponseHead) -> Int? {
    head.headers.first(name: "Content-Length").flatMap { PlaylistNumber.offset($0) }
  }

  public func readWhole(_ path: String, limit: Int) throws(SourceFailure) -> [UInt8] {
    let (transfer, head) = try start(path)
    defer { transfer.cancel() }
    if let length = Self.contentLength(head), length > limit { throw Self.tooLarge(length, limit: limit) }
    var bytes: [UInt8] = []
    while let piece = try transfer.next() {
      guard piece.readableBytes <= limit - bytes.count else {
        throw Self.tooLarge(bytes.count + piece.readableBytes, limit: limit)
      }
      bytes += piece.readableBytesView
    }
    return bytes
  }

  /// From a HEAD request's Content-Length, else by counting a GET's body.
  public func size(_ path: String) throws(SourceFailure) -> Int {
    let (probe, head) = try start(path, method: .HEAD)
    probe.cancel()
    if let length = Self.contentLength(head) { return length }
    let (transfer, _) = try start(path)
    defer { transfer.cancel() }
    var count = 0
    while let piece = try transfer.next() { count = count.addingReportingOverflow(piece.readableBytes).partialValue }
    return count
  }

  /// Whether a HEAD request for `path` succeeds: nothing of the body is read.
  func exists(_ path: String) -> Bool {
    guard let (probe, _) = try? start(path, method: .HEAD) else { return false }
    probe.cancel()
    return true
  }

  public func permissions(_ path: String) -> mode_t? { nil }

  public func stream(_ path: String, _ consume: ([UInt8]) throws -> Void) throws {
    let (transfer, _) = try start(path)
    defer { transfer.cancel() }
    while let piece = try transfer.next() { try consume(Array(piece.readableBytesView)) }
  }

  /// With a Range request; a server that ignores it (200, the whole body)
  /// is read up to the range's end, keeping only the range.
  public func read(_ path: String, range: Range<Int>) throws(SourceFailure) -> [UInt8] {
    let (transfer, head) = try start(path, range: range)
    defer { transfer.cancel() }
    let bodyStart = head.status.code == 206 ? range.lowerBound : 0
    var bytes: [UInt8] = []
    var position = bodyStart
    while position < range.upperBound, let data = try transfer.next() {
      let piece = Array(data.readableBytesView)
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

  private static func tooLarge(_ size: Int, limit: Int) -> SourceFailure {
    .unreadable("(\(size) bytes or more, larger than \(limit) bytes)")
  }
}
