import Foundation

/// A served file's size and the validators of RFC 9110 section 8.8: a strong
/// ETag from its inode, size and modification time, and Last-Modified.
struct FileValidators: Sendable, Equatable {
  var size: Int
  var etag: String
  var lastModified: String

  init(size: Int, etag: String, lastModified: String) {
    self.size = size
    self.etag = etag
    self.lastModified = lastModified
  }

  /// Reads the status of the file at `realPath`; nil when it cannot be read.
  init?(realPath: String) {
    var status = stat()
    guard stat(realPath, &status) == 0 else { return nil }
    size = Int(status.st_size)
    let nanoseconds = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    etag = "\"\(String(status.st_ino, radix: 16))-\(String(size, radix: 16))-\(String(nanoseconds, radix: 16))\""
    lastModified = Self.httpDate(seconds: status.st_mtim.tv_sec)
  }

  /// The IMF-fixdate form of RFC 9110 section 5.6.7, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
  static func httpDate(seconds: time_t) -> String {
    var seconds = seconds
    var parts = tm()
    gmtime_r(&seconds, &parts)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    let day = days[Int(parts.tm_wday) % 7]
    let month = months[Int(parts.tm_mon) % 12]
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return
      "\(day), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
  }
}
