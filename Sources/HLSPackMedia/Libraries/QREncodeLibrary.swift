internal import CQREncode

/// The libqrencode functions `QRCode` calls, looked up once, by the first
/// label (`hlspack fixture make`). qrencode.h names no ABI version: the
/// SONAME is Debian 12's (package libqrencode4), unchanged since qrencode 4.0.
struct QREncodeLibrary: @unchecked Sendable {
  let encodeString8bit: hlspack_QRcode_encodeString8bit_fn
  let free: hlspack_QRcode_free_fn

  /// The table, loaded on first use; throws `SharedLibraryError` when libqrencode is missing.
  static func shared() throws -> QREncodeLibrary { try loaded.get() }

  private static let loaded = Result {
    try QREncodeLibrary(
      SharedLibrary(opening: "libqrencode.so.4", neededBy: "hlspack fixture make", package: "libqrencode4"))
  }

  private init(_ library: SharedLibrary) throws {
    encodeString8bit = try library.function("QRcode_encodeString8bit")
    free = try library.function("QRcode_free")
  }
}
