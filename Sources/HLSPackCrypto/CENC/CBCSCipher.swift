/// AES-128-CBC for SAMPLE-AES `cbcs` in fMP4 (ISO/IEC 23001-7
/// §10.4): every chain starts from the one constant IV (from
/// `tenc`), and runs over whole blocks that need not be contiguous: the 1:9
/// pattern skips 144 bytes between encrypted blocks, and the chain carries on
/// across them. One key schedule for the whole rendition; one instance per
/// thread, like `AES128CBC`.
public final class CBCSCipher {
  private let cipher: SampleAESCipher
  private let iv: [UInt8]

  /// `encrypt: false` decrypts (for checks and tests).
  public init(key: [UInt8], constantIV: [UInt8], encrypt: Bool = true) throws {
    guard constantIV.count == 16 else { throw SampleAESError.ivLength(constantIV.count) }
    cipher = try SampleAESCipher(key: key, encrypt: encrypt)
    iv = constantIV
  }

  /// Restarts the chain from the constant IV and processes `runs` of `bytes`
  /// in place, in order. Each run must be whole blocks inside `bytes`.
  public func processChain(_ bytes: inout [UInt8], runs: [Range<Int>]) throws {
    for run in runs where run.lowerBound < 0 || run.upperBound > bytes.count || run.count % 16 != 0 {
      throw OpenSSLError(call: "cbcs", reason: "run \(run) is not whole blocks inside \(bytes.count) bytes")
    }
    guard !runs.isEmpty else { return }
    try SampleAESCipher.withIV(iv) { iv in
      try cipher.restart(iv: iv)
      try bytes.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        for run in runs where !run.isEmpty { try cipher.crypt(base + run.lowerBound, count: run.count) }
      }
    }
  }
}
