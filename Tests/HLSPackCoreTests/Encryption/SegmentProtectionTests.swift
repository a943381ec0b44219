import HLSPackCore
import Testing

/// The one decision of how a rendition's segments are protected, from the
/// profile's method and container.
@Suite struct SegmentProtectionTests {
  @Test func eachMethodAndContainerHasOneProtection() {
    #expect(SegmentProtection(method: .none, container: .ts) == .clear)
    #expect(SegmentProtection(method: .none, container: .fmp4) == .clear)
    #expect(SegmentProtection(method: .aes128, container: .ts) == .aes128Segments)
    #expect(SegmentProtection(method: .aes128, container: .fmp4) == .aes128Segments)
    #expect(SegmentProtection(method: .sampleAES, container: .ts) == .sampleAESTransportStream)
    #expect(SegmentProtection(method: .sampleAES, container: .fmp4) == .cbcs)
  }

  @Test func onlyClearCarriesNoKeys() {
    #expect(SegmentProtection.allCases.filter { !$0.encrypts } == [.clear])
  }
}
