internal import CZBar

/// libzbar's image scanner, set to read QR codes only. Owns the scanner and
/// frees it in deinit; one thread at a time.
final class QRScanner {
  private let scanner: OpaquePointer

  init() throws {
    guard let made = zbar_image_scanner_create() else { throw MediaError("libzbar could not make a scanner") }
    scanner = made
    zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
    zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
  }

  deinit { zbar_image_scanner_destroy(scanner) }

  /// "Y800": 8-bit grey, one byte per pixel (zbar_fourcc, a macro Swift cannot import).
  private static let grey: UInt = 0x3030_3859

  /// The texts of the QR codes in a grey picture (`width` x `height`, rows packed).
  func scan(grey pixels: UnsafeRawBufferPointer, width: Int, height: Int) -> [String] {
    guard let image = zbar_image_create() else { return [] }
    defer { zbar_image_destroy(image) }
    zbar_image_set_format(image, Self.grey)
    zbar_image_set_size(image, UInt32(width), UInt32(height))
    zbar_image_set_data(image, pixels.baseAddress, UInt(width * height), nil)
    guard zbar_scan_image(scanner, image) > 0 else { return [] }
    var texts: [String] = []
    var symbol = zbar_image_first_symbol(image)
    while let current = symbol {
      if let data = zbar_symbol_get_data(current) { texts.append(String(cString: data)) }
      symbol = zbar_symbol_next(current)
    }
    return texts
  }
}
