import Foundation
import HLSPackCrypto
import HLSPackTestSupport
import Testing

struct CBCVectors: Decodable {
  struct Block: Decodable {
    var plaintext: String
    var ciphertext: String
  }
  var key: String
  var iv: String
  var blocks: [Block]

  static func load() throws -> CBCVectors {
    let data = try Data(contentsOf: vectorsFolder.appendingPathComponent("aes128cbc.json"))
    return try JSONDecoder().decode(CBCVectors.self, from: data)
  }

  func bytes() throws -> (key: [UInt8], iv: [UInt8], plain: [UInt8], cipher: [UInt8]) {
    (
      try hex(key), try hex(iv),
      try blocks.flatMap { try hex($0.plaintext) },
      try blocks.flatMap { try hex($0.ciphertext) }
    )
  }
}

@Suite struct AES128CBCTests {
  let key: [UInt8] = Array(0..<16)
  let iv: [UInt8] = Array(16..<32)

  @Test func nistEncrypt() throws {
    let v = try CBCVectors.load().bytes()
    #expect(v.plain.count == 64)
    #expect(try AES128CBC().encryptBlocks(v.plain, key: v.key, iv: v.iv) == v.cipher)
  }

  @Test func nistDecrypt() throws {
    let v = try CBCVectors.load().bytes()
    #expect(try AES128CBC().decryptBlocks(v.cipher, key: v.key, iv: v.iv) == v.plain)
  }

  @Test func nistChainingFromAMidStreamIV() throws {
    // In CBC, block 2 alone with block 1's ciphertext as IV gives block 2's ciphertext.
    let v = try CBCVectors.load().bytes()
    let cipher = try AES128CBC().encryptBlocks(Array(v.plain[16..<32]), key: v.key, iv: Array(v.cipher[0..<16]))
    #expect(cipher == Array(v.cipher[16..<32]))
  }

  @Test func oneContextServesManyCalls() throws {
    // Each call re-initialises the context: CBC state never carries over (RFC 8216bis §4.4.4.4).
    let v = try CBCVectors.load().bytes()
    let aes = try AES128CBC()
    let first = try aes.encryptBlocks(v.plain, key: v.key, iv: v.iv)
    _ = try aes.encryptPadded([1, 2, 3], key: key, iv: iv)
    #expect(try aes.encryptBlocks(v.plain, key: v.key, iv: v.iv) == first)
  }

  /// Padding is always added (RFC 8216bis §4.4.4.4): 16·(⌊n/16⌋+1).
  @Test(arguments: [0, 1, 15, 16, 17, 188 * 100])
  func pkcs7Sizes(length: Int) throws {
    let plain = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let aes = try AES128CBC()
    let cipher = try aes.encryptPadded(plain, key: key, iv: iv)
    #expect(cipher.count == 16 * (length / 16 + 1))
    #expect(try aes.decryptPadded(cipher, key: key, iv: iv) == plain)

    // The padding itself, seen by decrypting without removing it.
    let raw = try aes.decryptBlocks(cipher, key: key, iv: iv)
    let pad = 16 - length % 16
    #expect(Array(raw.prefix(length)) == plain)
    #expect(Array(raw.suffix(pad)) == [UInt8](repeating: UInt8(pad), count: pad))
  }

  /// A segment encrypted part by part (CBC and the partial block carried in the
  /// context) equals the one-shot encryption, whatever the part sizes; the
  /// one-shot path is itself checked against NIST and the openssl CLI.
  @Test(arguments: [1, 15, 16, 17, 188, 4096, 188 * 100 + 7])
  func encryptingInPartsEqualsEncryptingWhole(part: Int) throws {
    let plain = (0..<(188 * 100 + 7)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 5) }
    let whole = try AES128CBC().encryptPadded(plain, key: key, iv: iv)

    let aes = try AES128CBC()
    try aes.start(key: key, iv: iv)
    var output: [UInt8] = []
    var cipher: [UInt8] = []
    for start in stride(from: 0, to: plain.count, by: part) {
      let produced = try aes.update(Array(plain[start..<min(start + part, plain.count)]), into: &output)
      #expect(produced % 16 == 0)
      cipher += output[..<produced]
    }
    cipher += try aes.finish()
    #expect(cipher == whole)
    #expect(output.count <= part + 16, "the output buffer is sized by the part, not the segment")
  }

  @Test func blockMultipleGainsAFullPaddingBlock() throws {
    let aes = try AES128CBC()
    let cipher = try aes.encryptPadded([UInt8](repeating: 0x47, count: 32), key: key, iv: iv)
    #expect(cipher.count == 48)
    // The last block decrypts, with the previous ciphertext block as its IV, to 16 × 0x10.
    let last = try aes.decryptBlocks(Array(cipher[32..<48]), key: key, iv: Array(cipher[16..<32]))
    #expect(last == [UInt8](repeating: 0x10, count: 16))
  }

  @Test func roundTripOfATransportStreamSizedBuffer() throws {
    var rng = SystemRandomNumberGenerator()
    let plain = (0..<(188 * 1000 + 7)).map { _ in UInt8.random(in: 0...255, using: &rng) }
    let aes = try AES128CBC()
    let cipher = try aes.encryptPadded(plain, key: key, iv: iv)
    #expect(cipher != Array(plain.prefix(cipher.count)))
    #expect(try aes.decryptPadded(cipher, key: key, iv: iv) == plain)
  }

  /// The CLI is an independent implementation of the same thing (it pads with PKCS#7 by default).
  @Test func matchesOpenSSLCommandLine() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hlspack-crypto-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let plain = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
    let input = folder.appendingPathComponent("plain.bin")
    let output = folder.appendingPathComponent("cipher.bin")
    try Data(plain).write(to: input)

    let openssl = Process()
    openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    openssl.arguments = [
      "openssl", "enc", "-aes-128-cbc", "-K", hex(key), "-iv", hex(iv), "-in", input.path, "-out", output.path,
    ]
    try openssl.run()
    openssl.waitUntilExit()
    try #require(openssl.terminationStatus == 0)

    let expected = try [UInt8](Data(contentsOf: output))
    #expect(expected.count == 1008)
    #expect(try AES128CBC().encryptPadded(plain, key: key, iv: iv) == expected)
  }

  @Test(arguments: [0, 15, 17, 32])
  func wrongKeyLengthThrows(length: Int) throws {
    let badKey = [UInt8](repeating: 1, count: length)
    let aes = try AES128CBC()
    #expect(throws: OpenSSLError.self) { try aes.encryptPadded([1], key: badKey, iv: iv) }
    #expect(throws: OpenSSLError.self) { try aes.decryptBlocks([UInt8](repeating: 0, count: 16), key: badKey, iv: iv) }
  }

  @Test(arguments: [0, 8, 15, 17])
  func wrongIVLengthThrows(length: Int) throws {
    let badIV = [UInt8](repeating: 1, count: length)
    let aes = try AES128CBC()
    #expect(throws: OpenSSLError.self) { try aes.encryptPadded([1], key: key, iv: badIV) }
    #expect(throws: OpenSSLError.self) { try aes.encryptBlocks([UInt8](repeating: 0, count: 16), key: key, iv: badIV) }
  }

  @Test(arguments: [1, 15, 17, 188])
  func unpaddedInputMustBeWholeBlocks(length: Int) throws {
    let aes = try AES128CBC()
    let data = [UInt8](repeating: 0, count: length)
    #expect(throws: OpenSSLError.self) { try aes.encryptBlocks(data, key: key, iv: iv) }
    #expect(throws: OpenSSLError.self) { try aes.decryptBlocks(data, key: key, iv: iv) }
  }

  @Test func decryptPaddedRejectsTruncatedOrEmptyCiphertext() throws {
    let aes = try AES128CBC()
    let cipher = try aes.encryptPadded([UInt8](repeating: 7, count: 40), key: key, iv: iv)
    #expect(throws: OpenSSLError.self) { try aes.decryptPadded(Array(cipher.dropLast()), key: key, iv: iv) }
    #expect(throws: OpenSSLError.self) { try aes.decryptPadded([], key: key, iv: iv) }
  }

  @Test func decryptPaddedWithTheWrongKeyThrows() throws {
    let aes = try AES128CBC()
    let cipher = try aes.encryptPadded([UInt8](repeating: 0x47, count: 188), key: key, iv: iv)
    // With a wrong key the last block decrypts to noise whose padding is
    // invalid; fixed inputs keep that deterministic.
    let wrongKey = key.map { $0 ^ 0xFF }
    let error = #expect(throws: OpenSSLError.self) { try aes.decryptPadded(cipher, key: wrongKey, iv: iv) }
    #expect(error?.call.contains("EVP_CipherFinal_ex") == true)
    // The context is usable again after the failure.
    #expect(try aes.decryptPadded(cipher, key: key, iv: iv) == [UInt8](repeating: 0x47, count: 188))
  }
}
