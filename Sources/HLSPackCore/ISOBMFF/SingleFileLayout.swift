/// How an AES-128 fMP4 rendition's single file begins: its clear init
/// section, then a `free` box (ISO/IEC 14496-12 §8.1.2, which readers skip)
/// that ends the section on a 16-byte block of the file, so that every
/// encrypted range after it starts on one, as a client widening an I-frame
/// range to whole blocks of the resource expects (RFC 8216bis §6.3.6). The
/// box's last 16 bytes are the first fragment's IV, which, like every later
/// range's, is then the block before it in the file.
public enum SingleFileLayout {
  /// The AES block size the ranges align to.
  public static let block = 16

  /// The `free` box to append to an init section of `length` bytes: its
  /// 8-byte header, as many zeros as align its end, and the IV.
  public static func alignmentBox(after length: Int, endingWith iv: [UInt8]) -> [UInt8] {
    let least = 8 + iv.count
    let size = least + (block - (length + least) % block) % block
    return BoxWriter.box("free", [UInt8](repeating: 0, count: size - least) + iv)
  }
}
