import CZlib
import HTTPTypes
import NIOCore

/// `--gzip`: playlists, and only they, are sent with Content-Encoding: gzip to
/// clients that accept it. Segments are compressed already, and a range must
/// stay byte-exact, so a Range request gets the identity encoding.
enum PlaylistGzip {
  /// How a response is encoded.
  enum Choice: Equatable {
    /// `--gzip` is off, or the file is not a playlist: no Vary either.
    case notApplicable
    case identity
    case gzip
  }

  /// Playlists larger than this are sent as they are: they are compressed in memory.
  static let largestPlaylist = 16 * 1024 * 1024

  static func choose(enabled: Bool, target: RequestTarget?, headers: HTTPFields) -> Choice {
    guard enabled, let kind = target?.kind, kind == .master || kind == .media else { return .notApplicable }
    guard headers[.range] == nil, accepts(headers[.acceptEncoding]) else { return .identity }
    return .gzip
  }

  /// Whether an Accept-Encoding value (RFC 9110 section 12.5.3) allows gzip: listed, or `*`, with q above 0.
  static func accepts(_ header: String?) -> Bool {
    guard let header else { return false }
    var weights: [String: Double] = [:]
    for item in header.split(separator: ",") {
      let parts = item.split(separator: ";")
      guard let coding = parts.first?.trimmingSpaces.lowercased(), !coding.isEmpty else { continue }
      var weight = 1.0
      for parameter in parts.dropFirst() {
        let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces.lowercased() }
        if pair.count == 2, pair[0] == "q", let value = Double(pair[1]) { weight = value }
      }
      weights[coding] = weight
    }
    let weight = weights["gzip"] ?? weights["x-gzip"] ?? weights["*"] ?? 0
    return weight > 0
  }

  /// The gzip representation's entity tag: a different representation needs a
  /// different tag (RFC 9110 section 8.8.3), so `"abc"` becomes `"abc-gzip"`.
  static func etag(_ identity: String) -> String {
    guard identity.hasSuffix("\""), identity.count >= 2 else { return identity }
    return String(identity.dropLast()) + "-gzip\""
  }

  /// If-None-Match with the gzip tags turned back into the identity tags, for an origin that knows only those.
  static func identityTags(_ header: String) -> String {
    header.replacingOccurrences(of: "-gzip\"", with: "\"")
  }

  /// The gzip member (RFC 1952) of `input`, compressed in one call; nil if zlib fails.
  static func compress(_ input: ByteBuffer) -> ByteBuffer? {
    var stream = z_stream()
    // windowBits 15 + 16 asks deflate for the gzip header and trailer instead of zlib's.
    let started = deflateInit2_(
      &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
      Int32(MemoryLayout<z_stream>.size))
    guard started == Z_OK else { return nil }
    defer { _ = deflateEnd(&stream) }
    var source = Array(input.readableBytesView)
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(source.count))))
    let status = source.withUnsafeMutableBufferPointer { sourceBytes in
      output.withUnsafeMutableBufferPointer { outputBytes in
        stream.next_in = sourceBytes.baseAddress
        stream.avail_in = UInt32(sourceBytes.count)
        stream.next_out = outputBytes.baseAddress
        stream.avail_out = UInt32(outputBytes.count)
        return deflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END else { return nil }
    return ByteBuffer(bytes: output.prefix(Int(stream.total_out)))
  }
}
