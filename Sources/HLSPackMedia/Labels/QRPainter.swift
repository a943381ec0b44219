internal import CFFmpeg

/// Draws a QR code straight into a 4:2:0 picture's planes, black modules on
/// white with the four-module quiet zone the standard asks for (ISO/IEC
/// 18004 §6.3.8), in the bottom right corner, below the top eighth (the sync
/// flash) and clear of the text labels on the left.
struct QRPainter {
  static let quietZone = 4
  /// Pixels per module: the code takes close to 45 % of the picture's height,
  /// and never less than 3 pixels a module, which a reader of a 360p picture
  /// still resolves after lossy coding.
  static func moduleSize(codeSize: Int, height: Int) -> Int {
    max(3, height * 45 / 100 / (codeSize + 2 * quietZone))
  }

  /// The side of the painted square in pixels, quiet zone included.
  static func side(codeSize: Int, height: Int) -> Int {
    moduleSize(codeSize: codeSize, height: height) * (codeSize + 2 * quietZone)
  }

  /// Paints `code` into `frame`, which must be writable.
  static func paint(_ code: QRCode, into frame: UnsafeMutablePointer<AVFrame>) {
    let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
    let module = moduleSize(codeSize: code.size, height: height)
    let side = module * (code.size + 2 * quietZone)
    let margin = max(4, height / 40)
    // Even corner, so that the chroma planes line up with the luma.
    let left = max(0, width - side - margin) & ~1
    let top = max(0, height - side - margin) & ~1
    guard let luma = frame.plane(0) else { return }
    let lumaStride = frame.stride(0)
    for y in 0..<min(side, height - top) {
      let row = luma + (top + y) * lumaStride + left
      let codeY = y / module - quietZone
      for x in 0..<min(side, width - left) {
        let codeX = x / module - quietZone
        let inside = codeX >= 0 && codeY >= 0 && codeX < code.size && codeY < code.size
        // Limited-range black and white, as the encoder's colour range says.
        row[x] = inside && code.isDark(x: codeX, y: codeY) ? 16 : 235
      }
    }
    // Grey chroma: the code reads the same whatever the picture behind it was.
    for plane in 1...2 {
      guard let start = frame.plane(plane) else { continue }
      let stride = frame.stride(plane)
      let rows = min(side, height - top) / 2, columns = min(side, width - left) / 2
      for y in 0..<rows { memset(start + (top / 2 + y) * stride + left / 2, 128, columns) }
    }
  }
}
