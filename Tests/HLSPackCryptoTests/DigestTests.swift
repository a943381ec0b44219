import HLSPackCrypto
import HLSPackTestSupport
import Testing

@Suite struct DigestTests {
  /// FIPS 180-2, Appendix B.1, and the empty message.
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
  ])
  func sha256(message: String, expected: String) throws {
    #expect(hex(try Digest.sha256(Array(message.utf8))) == expected)
  }

  @Test func sha256OfAMillionAs() throws {
    // FIPS 180-2, Appendix B.3.
    let digest = try Digest.sha256([UInt8](repeating: 0x61, count: 1_000_000))
    #expect(hex(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// The million a's again, in pieces of uneven sizes: what a segment written part by part goes through.
  @Test(arguments: [1, 63, 64, 65, 188 * 348, 1_000_000])
  func sha256InPieces(piece: Int) throws {
    let message = [UInt8](repeating: 0x61, count: 1_000_000)
    let digest = try SHA256Stream()
    for start in stride(from: 0, to: message.count, by: piece) {
      try digest.update(Array(message[start..<min(start + piece, message.count)]))
    }
    #expect(hex(try digest.finish()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// RFC 4231 §4.2 and §4.3.
  @Test func hmacSHA256() throws {
    let case1 = try Digest.hmacSHA256(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8))
    #expect(hex(case1) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")

    let case2 = try Digest.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
    #expect(hex(case2) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
  }

  /// RFC 4231 §4.7: a key longer than the block size is hashed first.
  @Test func hmacSHA256WithLongKey() throws {
    let mac = try Digest.hmacSHA256(
      key: [UInt8](repeating: 0xaa, count: 131),
      message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
    #expect(hex(mac) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
  }
}
