import HLSPackCore
import Testing

/// RESOLUTION of non-square pixels (RFC 8216bis §4.4.6.2), as Shaka Packager computes it.
@Suite struct DisplayWidthTests {
  @Test(
    arguments: [
      (176, 128, 117, 192),  // CIF-style 128:117 pixels: 192.5, truncated
      (1440, 4, 3, 1920),  // HDV 1440x1080 shows as 1920x1080
      (720, 64, 45, 1024),  // 16:9 PAL DV
      (1280, 1, 1, 1280),
      (1280, 0, 1, 1280),  // unknown: square
      (1280, 1, 0, 1280),
    ] as [(Int, Int, Int, Int)])
  func widthAsShown(coded: Int, numerator: Int, denominator: Int, shown: Int) {
    #expect(WrittenStreamFacts.displayWidth(codedWidth: coded, sampleAspect: (numerator, denominator)) == shown)
  }
}
