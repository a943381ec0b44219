internal import CZBar

/// libzbar's image scanner, set to read QR codes only. Owns the scanner and
/// frees it in deinit; one thread at a time.
final class QRScanner {
  private let zbar: ZBarLibrary
  private let scanner: OpaquePointer

  init() throws {
    zbar = try ZBarLibrary.shared()
    guard let made = zbar.imageScannerCreate() else { throw MediaError("libzbar could not make a scanner") }
    scanner = made
    _ = zbar.imageScannerSetConfig(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
    _ = zbar.imageScannerSetConfig(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
  }

  deinit { zbar.imageScannerDestroy(scanner) }

  /// "Y800": 8-bit grey, one byte per pixel (zbar_fourcc, a macro Swift cannot import).
  private static let grey: UInt = 0x3030_3859

  /// The texts of the QR codes in a grey picture (`width` x `height`, rows packed).
  func scan(grey pixels: UnsafeRawBufferPointer, width: Int, height: Int) -> [String] {
    guard let image = zbar.imageCreate() else { return [] }
    defer { zbar.imageDestroy(image) }
    zbar.imageSetFormat(image, Self.grey)
    zbar.imageSetSize(image, UInt32(width), UInt32(height))
    zbar.imageSetData(image, pixels.baseAddress, UInt(width * height), nil)
    guard zbar.scanImage(scanner, image) > 0 else { return [] }
    var texts: [String] = []
    var symbol = zbar.imageFirstSymbol(image)
    while let current = symbol {
      if let data = zbar.symbolGetData(current) { texts.append(String(cString: data)) }
      symbol = zbar.symbolNext(current)
    }
    return texts
  }
}
