import Testing

@testable import HLSPackCore

/// FFmpeg's key-info file (docs/conformance.md, FFmpeg key-info files): line 1 the key URI,
/// line 2 the key file path, optional line 3 the IV.
@Suite struct FFmpegKeyInfoTests {
  static let iv: [UInt8] = Array(0..<16)

  private func parse(_ text: String) -> FFmpegKeyInfo? {
    try? FFmpegKeyInfo.parse(text).get()
  }

  @Test func twoLines() {
    #expect(
      parse("https://k.example/a.key\n/keys/a.key\n")
        == FFmpegKeyInfo(uri: "https://k.example/a.key", keyPath: "/keys/a.key", iv: nil))
  }

  @Test func threeLinesWithIV() {
    #expect(parse("a.key\nkeys/a.key\n000102030405060708090a0b0c0d0e0f\n")?.iv == Self.iv)
  }

  @Test func windowsLineEndingsAndStraySpaces() {
    #expect(
      parse("a.key \r\n keys/a.key\r\n000102030405060708090A0B0C0D0E0F\r\n")
        == FFmpegKeyInfo(uri: "a.key", keyPath: "keys/a.key", iv: Self.iv))
  }

  @Test func emptyThirdLineMeansNoIV() {
    #expect(parse("a.key\nkeys/a.key\n\n")?.iv == nil)
  }

  @Test(arguments: ["", "a.key", "a.key\n", "\nkeys/a.key\n", "a.key\n\n"])
  func needsURIAndKeyPath(_ text: String) {
    #expect(parse(text) == nil)
  }

  @Test(arguments: [
    "a.key\nk\n0001", "a.key\nk\nnot hex at all, 32 characters!!", "a.key\nk\n000102030405060708090a0b0c0d0e0f00",
  ])
  func rejectsBadIV(_ text: String) {
    #expect(parse(text) == nil)
  }

  /// The same sign-accepting hex parser as HexTests.decodeRejectsSigns, reachable from a file.
  @Test
  func rejectsSignedIV() {
    #expect(parse("a.key\nk\n" + String(repeating: "+f", count: 16)) == nil)
  }

  @Test func textRoundTrip() {
    let info = FFmpegKeyInfo(uri: "skd://x", keyPath: "/k/a.key", iv: Self.iv)
    #expect(info.text == "skd://x\n/k/a.key\n000102030405060708090a0b0c0d0e0f\n")
    #expect(parse(info.text) == info)
    #expect(FFmpegKeyInfo(uri: "u", keyPath: "p", iv: nil).text == "u\np\n")
  }
}
