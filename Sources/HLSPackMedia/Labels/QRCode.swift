internal import CQREncode

/// A QR code's modules as libqrencode makes them (no quiet zone: the painter adds it).
struct QRCode {
  /// Modules per side.
  let size: Int
  /// Row-major, true for a dark module.
  let modules: [Bool]

  /// Version 3 (29 modules) holds any label of a rendition name up to 12
  /// characters at level M, so the code keeps its size as frame numbers grow.
  static let minimumVersion: Int32 = 3

  /// Byte mode, error correction level M (15 %): a camera recording of a
  /// screen blurs and moirés, and a label is never longer than a few dozen bytes.
  init(text: String) throws {
    let qrencode = try QREncodeLibrary.shared()
    guard let code = qrencode.encodeString8bit(text, Self.minimumVersion, QR_ECLEVEL_M) else {
      throw MediaError("libqrencode could not encode the frame label \"\(text)\"")
    }
    defer { qrencode.free(code) }
    let size = Int(code.pointee.width)
    self.size = size
    // Bit 0 of each byte is the module's colour (qrencode.h).
    modules = (0..<(size * size)).map { code.pointee.data[$0] & 1 != 0 }
  }

  func isDark(x: Int, y: Int) -> Bool { modules[y * size + x] }
}
