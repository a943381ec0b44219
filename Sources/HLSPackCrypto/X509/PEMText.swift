internal import COpenSSL

/// PEM text in and out of OpenSSL through a memory BIO that lives for one call.
enum PEMText {
  /// Parses `text` with `parse`; the object it returns belongs to the caller.
  static func read(_ text: String, _ call: String, _ parse: (OpaquePointer) -> OpaquePointer?) throws -> OpaquePointer {
    let bytes = Array(text.utf8)
    return try bytes.withUnsafeBytes { raw in
      guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else {
        throw OpenSSLError(call: call, reason: "no PEM text")
      }
      defer { BIO_free(bio) }
      guard let object = parse(bio) else { throw OpenSSLError.last(call) }
      return object
    }
  }

  /// The text that `print` writes.
  static func write(_ call: String, _ print: (OpaquePointer) -> Int32) throws -> String {
    guard let bio = BIO_new(BIO_s_mem()) else { throw OpenSSLError.last("BIO_new") }
    defer { BIO_free(bio) }
    try check(print(bio), call)
    var text = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
    guard BIO_read(bio, &text, Int32(text.count)) == text.count else { throw OpenSSLError.last("BIO_read") }
    return String(decoding: text, as: UTF8.self)
  }
}
