/// The one byte range a request asks for (RFC 9110 section 14).
enum RangeRequest: Equatable {
  /// No usable Range header (absent, not `bytes=`, several ranges, or If-Range not matching): the whole file.
  case whole
  /// Bytes `lowerBound...upperBound` of the file, both inside it.
  case partial(ClosedRange<Int>)
  /// A syntactically valid range that starts past the end of the file: 416.
  case unsatisfiable

  /// Reads `Range` against a file of `size` bytes. `ifRange` is the request's
  /// If-Range value: the range applies only when it equals the file's ETag or
  /// Last-Modified date (section 13.1.5); otherwise the whole file is sent.
  init(header: String?, ifRange: String?, size: Int, validators: FileValidators) {
    guard let header else {
      self = .whole
      return
    }
    if let ifRange, ifRange != validators.etag, ifRange != validators.lastModified {
      self = .whole
      return
    }
    self = Self.parse(header.trimmingSpaces, size: size)
  }

  private static func parse(_ header: String, size: Int) -> RangeRequest {
    guard header.hasPrefix("bytes=") else { return .whole }
    let spec = header.dropFirst("bytes=".count)
    // Several ranges would need multipart/byteranges; section 14.2 lets a server ignore the header instead.
    guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
    let first = spec[spec.startIndex..<dash].trimmingSpaces
    let last = spec[spec.index(after: dash)...].trimmingSpaces
    if first.isEmpty {
      guard let suffix = Int(last), suffix >= 0 else { return .whole }
      guard suffix > 0, size > 0 else { return .unsatisfiable }
      return .partial(max(0, size - suffix)...(size - 1))
    }
    guard let start = Int(first), start >= 0 else { return .whole }
    let end: Int
    if last.isEmpty {
      end = size - 1
    } else {
      guard let value = Int(last), value >= start else { return .whole }
      end = min(value, size - 1)
    }
    guard start < size else { return .unsatisfiable }
    return .partial(start...end)
  }
}

extension StringProtocol {
  var trimmingSpaces: String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
