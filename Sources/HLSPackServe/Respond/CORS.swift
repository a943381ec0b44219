import HTTPTypes
import Hummingbird

/// Cross-origin headers for browser players (hls.js, Shaka Player): any
/// origin may read, and scripts may see the headers a range request needs.
enum CORS {
  static func addHeaders(to headers: inout HTTPFields) {
    headers[.accessControlAllowOrigin] = "*"
    headers[.accessControlExposeHeaders] = "Content-Length, Content-Range, Accept-Ranges, ETag, Last-Modified"
  }

  /// The answer to a preflight (OPTIONS): the methods served, the request
  /// headers asked for echoed back (a wildcard does not cover Authorization).
  static func preflight(_ request: Request) -> Response {
    var headers = HTTPFields()
    addHeaders(to: &headers)
    headers[.accessControlAllowMethods] = "GET, HEAD, OPTIONS"
    if let asked = request.headers[.accessControlRequestHeaders] {
      headers[.accessControlAllowHeaders] = asked
    }
    headers[.accessControlMaxAge] = "600"
    headers[.contentLength] = "0"
    return Response(status: .noContent, headers: headers)
  }
}
