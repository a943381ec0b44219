import Testing

@testable import HLSPackCore

@Suite struct HexTests {
  static let bytes: [UInt8] = [0x00, 0x01, 0x7f, 0x80, 0xab, 0xff]

  @Test func encode() {
    #expect(Hex.encode(Self.bytes) == "00017f80abff")
    #expect(Hex.encode(Self.bytes, uppercase: true) == "00017F80ABFF")
    #expect(Hex.encode([]) == "")
  }

  @Test(arguments: ["00017f80abff", "00017F80ABFF", "0x00017f80abff", "0X00017F80abFF"])
  func decode(_ text: String) {
    #expect(Hex.decode(text) == Self.bytes)
  }

  @Test func roundTripOfEveryByte() {
    let all = (0...255).map { UInt8($0) }
    #expect(Hex.decode(Hex.encode(all)) == all)
    #expect(Hex.decode(Hex.encode(all, uppercase: true)) == all)
  }

  @Test func emptyDecodesToNoBytes() {
    #expect(Hex.decode("") == [])
  }

  @Test(arguments: ["0", "abc", "zz", "0g", " 0", "0 ", "0x0", "x0", "00\n"])
  func decodeRejects(_ text: String) {
    #expect(Hex.decode(text) == nil)
  }

  /// Swift's integer parser accepts a sign, so "+f" and "-0" look like bytes.
  @Test(
    arguments: ["+f", "-0", "+f+f"])
  func decodeRejectsSigns(_ text: String) {
    #expect(Hex.decode(text) == nil)
  }
}
