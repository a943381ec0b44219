/// H.264 start-code emulation prevention, applied and removed one layer at a time.
///
/// SAMPLE-AES encrypts NAL bytes as they stand in the stream (with their
/// `00 00 03` already in place) and then escapes the whole encrypted NAL unit
/// once more, so an existing `00 00 03` becomes `00 00 03 03`; a decryptor
/// strips exactly one layer (docs/conformance.md, SAMPLE-AES in MPEG-TS).
enum EmulationPrevention {
  /// Appends `piece` escaped; `zeros` carries the run of zero bytes from the
  /// previous piece, because a NAL unit is escaped as one whole while it is
  /// assembled from clear and encrypted pieces.
  static func appendEscaped(_ piece: UnsafeBufferPointer<UInt8>, zeros: inout Int, to out: inout [UInt8]) {
    var run = zeros  // a local keeps the per-byte loop in registers
    var copied = 0
    for i in 0..<piece.count {
      let byte = piece[i]
      if run >= 2, byte <= 3 {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: piece[copied..<i]))
        out.append(3)
        copied = i
        run = 0
      }
      run = byte == 0 ? run + 1 : 0
    }
    out.append(contentsOf: UnsafeBufferPointer(rebasing: piece[copied...]))
    zeros = run
  }

  /// Appends `nal` with one layer of `00 00 03` removed.
  static func appendUnescaped(_ nal: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    var copied = 0
    var zeros = 0
    for i in 0..<nal.count {
      let byte = nal[i]
      if zeros >= 2, byte == 3 {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: nal[copied..<i]))
        copied = i + 1
        zeros = 0
        continue
      }
      zeros = byte == 0 ? zeros + 1 : 0
    }
    out.append(contentsOf: UnsafeBufferPointer(rebasing: nal[copied...]))
  }
}
