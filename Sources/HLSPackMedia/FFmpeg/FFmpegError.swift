internal import CFFmpeg

/// A failed libav* call: the call, FFmpeg's code and its own message.
struct FFmpegError: Error, CustomStringConvertible {
  var call: String
  var code: Int32

  var description: String { "\(call): \(Self.message(for: code))" }

  static func message(for code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: Int(AV_ERROR_MAX_STRING_SIZE))
    av_strerror(code, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  static let tryAgain = hlspack_averror(EAGAIN)
  static let endOfFile = hlspack_averror_eof()
}

/// Throws for negative return codes, the libav* convention; returns the rest.
@discardableResult
func check(_ code: Int32, _ call: @autoclosure () -> String) throws -> Int32 {
  if code < 0 { throw FFmpegError(call: call(), code: code) }
  return code
}

/// Sets an AVOption and fails on a misspelt name or a bad value (they are
/// otherwise ignored silently).
func setOption(_ object: UnsafeMutableRawPointer?, _ name: String, _ value: String) throws {
  try check(av_opt_set(object, name, value, AV_OPT_SEARCH_CHILDREN), "av_opt_set(\(name)=\(value))")
}

func setOption(_ object: UnsafeMutableRawPointer?, _ name: String, _ value: Int64) throws {
  try check(av_opt_set_int(object, name, value, AV_OPT_SEARCH_CHILDREN), "av_opt_set_int(\(name)=\(value))")
}

/// A stream or an FFmpeg build hlspack cannot work with, found without any
/// libav* call failing: the message says it all, with no error code after it.
struct MediaError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
