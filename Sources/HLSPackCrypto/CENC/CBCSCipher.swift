/// AES-128-CBC for SAMPLE-AES `cbcs` in fMP4 (ISO/IEC 23001-7 §10.4): every
/// chain starts from an IV (the constant IV from `tenc`, or a sample's own
/// from `senc`) and runs over whole blocks that need not be contiguous: the
/// 1:9 pattern skips 144 bytes between encrypted blocks, and the chain carries
/// on across them. The packager encrypts with it and `hlspack verify` decrypts
/// with it. One key schedule for the whole rendition; one instance per
/// thread, like `AES128CBC`.
public final class CBCSCipher {
  private let cipher: SampleAESCipher

  /// `encrypt: false` decrypts.
  public init(key: [UInt8], encrypt: Bool = true) throws {
    cipher = try SampleAESCipher(key: key, encrypt: encrypt)
  }

  /// Restarts the chain from `iv` and processes `runs` of `bytes` in place,
  /// in order. Each run must be whole blocks inside `bytes`.
  public func processChain(_ bytes: inout [UInt8], runs: [Range<Int>], iv: [UInt8]) throws {
    for run in runs where run.lowerBound < 0 || run.upperBound > bytes.count || run.count % 16 != 0 {
      throw SampleAESError.runOutside(run, count: bytes.count)
    }
    try SampleAESCipher.withIV(iv) { iv in
      guard !runs.isEmpty else { return }
      try cipher.restart(iv: iv)
      try bytes.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        for run in runs where !run.isEmpty { try cipher.crypt(base + run.lowerBound, count: run.count) }
      }
    }
  }
}
