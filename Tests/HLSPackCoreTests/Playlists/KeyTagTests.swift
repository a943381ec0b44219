import Testing

@testable import HLSPackCore

@Suite struct KeyTagTests {
  /// `0x` + exactly 32 upper-case digits (docs/conformance.md, IVs), leading zeros kept.
  @Test func ivFormatting() {
    let iv: [UInt8] = [0x00, 0x01, 0x0a, 0xbc, 0xde, 0xf0, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xff, 0x00, 0x0f]
    let text = KeyTag.formatIV(iv)
    #expect(text == "0x00010ABCDEF0123456789ABCDEFF000F")
    #expect(text.wholeMatch(of: /0x[0-9A-F]{32}/) != nil)
    #expect(KeyTag.formatIV([UInt8](repeating: 0, count: 16)) == "0x" + String(repeating: "0", count: 32))
  }

  @Test func methodNoneCarriesNoOtherAttribute() {
    #expect(KeyTag.none.attributes == "METHOD=NONE")
    // Even if a URI or IV were set by mistake, NONE must render alone (RFC 8216bis §4.4.4.4).
    #expect(KeyTag(method: .none, uri: "k", iv: [UInt8](repeating: 1, count: 16)).attributes == "METHOD=NONE")
  }

  @Test func aes128Attributes() {
    #expect(KeyTag(method: .aes128, uri: "keys/a.key", iv: nil).attributes == #"METHOD=AES-128,URI="keys/a.key""#)
    let iv = SegmentIV.sequence(10)
    #expect(
      KeyTag(method: .aes128, uri: "skd://a", iv: iv).attributes
        == #"METHOD=AES-128,URI="skd://a",IV=0x0000000000000000000000000000000A"#)
  }

  @Test func requiredVersion() {
    #expect(KeyTag.none.requiredVersion == 1)
    #expect(KeyTag(method: .aes128, uri: "k", iv: nil).requiredVersion == 1)
    #expect(KeyTag(method: .aes128, uri: "k", iv: SegmentIV.sequence(0)).requiredVersion == 2)
  }

  @Test func equalityDecidesWhenATagIsRepeated() {
    let a = KeyTag(method: .aes128, uri: "k", iv: SegmentIV.sequence(1))
    #expect(a == KeyTag(method: .aes128, uri: "k", iv: SegmentIV.sequence(1)))
    #expect(a != KeyTag(method: .aes128, uri: "k", iv: SegmentIV.sequence(2)))
    #expect(a != KeyTag(method: .aes128, uri: "k2", iv: SegmentIV.sequence(1)))
  }
}
