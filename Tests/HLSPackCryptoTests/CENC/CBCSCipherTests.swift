import Testing

@testable import HLSPackCrypto

/// CBCSCipher: one CBC chain per call from the IV it is given, over blocks that
/// need not be contiguous (ISO/IEC 23001-7; docs/conformance.md, Worked examples), against AES128CBC over
/// the same blocks gathered.
@Suite struct CBCSCipherTests {
  static let key: [UInt8] = Array(0x00...0x0F)
  static let iv: [UInt8] = Array(0xF0...0xFF)

  /// The worked example's sample: 1028 bytes, 35 clear, then blocks at 35 + 160k, k = 0…6.
  static let m10Runs = stride(from: 35, through: 995, by: 160).map { $0..<$0 + 16 }

  static func sample() -> [UInt8] { (0..<1028).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) } }

  @Test func workedExampleM10IsOneChainThroughSevenBlocks() throws {
    var bytes = Self.sample()
    try CBCSCipher(key: Self.key).processChain(&bytes, runs: Self.m10Runs, iv: Self.iv)
    let plain = Self.sample()
    let gathered = Self.m10Runs.flatMap { plain[$0] }
    let expected = try AES128CBC().encryptBlocks(gathered, key: Self.key, iv: Self.iv)
    #expect(Self.m10Runs.flatMap { bytes[$0] } == expected)
    // Everything outside the seven blocks is untouched.
    let encrypted = Set(Self.m10Runs.joined())
    #expect(bytes.indices.filter { !encrypted.contains($0) }.allSatisfy { bytes[$0] == plain[$0] })
    // And decrypts back.
    try CBCSCipher(key: Self.key, encrypt: false).processChain(&bytes, runs: Self.m10Runs, iv: Self.iv)
    #expect(bytes == plain)
  }

  @Test func everyCallRestartsFromItsIV() throws {
    let cipher = try CBCSCipher(key: Self.key)
    var a = Self.sample(), b = Self.sample()
    try cipher.processChain(&a, runs: [0..<16], iv: Self.iv)
    try cipher.processChain(&a, runs: [160..<176], iv: Self.iv)
    // Two subsamples: the second block is encrypted with the IV, not chained from the first.
    let plain = Self.sample()
    #expect(Array(a[160..<176]) == (try AES128CBC().encryptBlocks(Array(plain[160..<176]), key: Self.key, iv: Self.iv)))
    // One subsample: chained.
    try cipher.processChain(&b, runs: [0..<16, 160..<176], iv: Self.iv)
    #expect(Array(b[0..<16]) == Array(a[0..<16]))
    #expect(
      Array(b[160..<176])
        == (try AES128CBC().encryptBlocks(Array(plain[0..<16] + plain[160..<176]), key: Self.key, iv: Self.iv)).suffix(
          16))
  }

  @Test func wholeSampleAudioRunMatchesPlainCBC() throws {
    var bytes = Array(Self.sample().prefix(100))
    try CBCSCipher(key: Self.key).processChain(&bytes, runs: [0..<96], iv: Self.iv)
    let plain = Array(Self.sample().prefix(100))
    #expect(Array(bytes[0..<96]) == (try AES128CBC().encryptBlocks(Array(plain[0..<96]), key: Self.key, iv: Self.iv)))
    #expect(Array(bytes[96...]) == Array(plain[96...]), "the 4-byte tail stays clear")
  }

  @Test func refusesRunsThatAreNotWholeBlocksInside() throws {
    let cipher = try CBCSCipher(key: Self.key)
    var bytes = Self.sample()
    #expect(throws: SampleAESError.runOutside(0..<15, count: 1028)) {
      try cipher.processChain(&bytes, runs: [0..<15], iv: Self.iv)
    }
    #expect(throws: (any Error).self) { try cipher.processChain(&bytes, runs: [1020..<1036], iv: Self.iv) }
    // verify reports this text as it was before the packager and verify shared the chain.
    #expect(
      "\(SampleAESError.runOutside(0..<15, count: 1028))" == "cbcs run 0..<15 is not whole blocks inside 1028 bytes")
    #expect(throws: (any Error).self) { try cipher.processChain(&bytes, runs: [0..<16], iv: [1, 2, 3]) }
    #expect(bytes == Self.sample())
  }
}
