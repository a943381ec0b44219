/// Delimits back-to-back AC-3 syncframes from their syncinfo (ATSC A/52 §5.3.1,
/// frame sizes from Table 5.18).
public enum AC3SyncFrames {
  /// Calls `body` with each syncframe's range.
  public static func forEach(in bytes: UnsafeBufferPointer<UInt8>, _ body: (_ frame: Range<Int>) throws -> Void) throws
  {
    var offset = 0
    while offset < bytes.count {
      let size = try frameSize(UnsafeBufferPointer(rebasing: bytes[offset...]), offset: offset)
      try body(offset..<offset + size)
      offset += size
    }
  }

  /// Bytes in the syncframe that `bytes` starts with.
  public static func frameSize(_ bytes: UnsafeBufferPointer<UInt8>, offset: Int) throws -> Int {
    // syncword (16), crc1 (16), fscod (2) frmsizecod (6), bsid (5) bsmod (3)
    guard bytes.count >= 6 else {
      throw FramingError.ac3(offset: offset, reason: "\(bytes.count) bytes left, syncinfo and bsid need 6")
    }
    guard bytes[0] == 0x0B, bytes[1] == 0x77 else {
      throw FramingError.ac3(offset: offset, reason: "no syncword 0x0B77")
    }
    let bsid = bytes[5] >> 3
    // bsid 11–16 is E-AC-3, whose frame size sits elsewhere and whose IV reset
    // point is disputed (docs/conformance.md, SAMPLE-AES in MPEG-TS); only AC-3 is handled here.
    guard bsid <= 10 else { throw FramingError.ac3(offset: offset, reason: "bsid \(bsid) is not AC-3 (E-AC-3?)") }
    let fscod = Int(bytes[4] >> 6)
    let frmsizecod = Int(bytes[4] & 0x3F)
    guard fscod < 3 else { throw FramingError.ac3(offset: offset, reason: "reserved fscod 3") }
    guard frmsizecod < 38 else { throw FramingError.ac3(offset: offset, reason: "reserved frmsizecod \(frmsizecod)") }
    let size = 2 * words(fscod: fscod, frmsizecod: frmsizecod)
    guard size <= bytes.count else {
      throw FramingError.ac3(offset: offset, reason: "frame size \(size) runs past the end (\(bytes.count) bytes left)")
    }
    return size
  }

  /// Nominal bit rates in kbit/s, one per pair of frmsizecod values.
  private static let kbps = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640]

  /// 16-bit words per syncframe: 1536 samples at the nominal rate. 48 and
  /// 32 kHz divide evenly; at 44.1 kHz the odd frmsizecod carries the one
  /// extra word that keeps the average rate exact (Table 5.18).
  static func words(fscod: Int, frmsizecod: Int) -> Int {
    let rate = kbps[frmsizecod / 2]
    switch fscod {
    case 0: return rate * 2
    case 1: return rate * 1000 * 1536 / (44100 * 16) + (frmsizecod & 1)
    default: return rate * 3
    }
  }
}
