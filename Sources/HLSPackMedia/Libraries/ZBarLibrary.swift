internal import CZBar

/// The libzbar functions `QRScanner` calls, looked up once, by the first
/// scanner (`hlspack fixture check`). zbar.h names no ABI version: the
/// SONAME is Debian 12's (package libzbar0), unchanged since zbar 0.10.
struct ZBarLibrary: @unchecked Sendable {
  let imageScannerCreate: hlspack_zbar_image_scanner_create_fn
  let imageScannerSetConfig: hlspack_zbar_image_scanner_set_config_fn
  let imageScannerDestroy: hlspack_zbar_image_scanner_destroy_fn
  let imageCreate: hlspack_zbar_image_create_fn
  let imageDestroy: hlspack_zbar_image_destroy_fn
  let imageSetFormat: hlspack_zbar_image_set_format_fn
  let imageSetSize: hlspack_zbar_image_set_size_fn
  let imageSetData: hlspack_zbar_image_set_data_fn
  let scanImage: hlspack_zbar_scan_image_fn
  let imageFirstSymbol: hlspack_zbar_image_first_symbol_fn
  let symbolGetData: hlspack_zbar_symbol_get_data_fn
  let symbolNext: hlspack_zbar_symbol_next_fn

  /// The table, loaded on first use; throws `SharedLibraryError` when libzbar is missing.
  static func shared() throws -> ZBarLibrary { try loaded.get() }

  private static let loaded = Result {
    try ZBarLibrary(SharedLibrary(opening: "libzbar.so.0", neededBy: "hlspack fixture check", package: "libzbar0"))
  }

  private init(_ library: SharedLibrary) throws {
    imageScannerCreate = try library.function("zbar_image_scanner_create")
    imageScannerSetConfig = try library.function("zbar_image_scanner_set_config")
    imageScannerDestroy = try library.function("zbar_image_scanner_destroy")
    imageCreate = try library.function("zbar_image_create")
    imageDestroy = try library.function("zbar_image_destroy")
    imageSetFormat = try library.function("zbar_image_set_format")
    imageSetSize = try library.function("zbar_image_set_size")
    imageSetData = try library.function("zbar_image_set_data")
    scanImage = try library.function("zbar_scan_image")
    imageFirstSymbol = try library.function("zbar_image_first_symbol")
    symbolGetData = try library.function("zbar_symbol_get_data")
    symbolNext = try library.function("zbar_symbol_next")
  }
}
