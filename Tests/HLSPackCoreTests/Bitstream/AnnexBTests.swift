import Testing

@testable import HLSPackCore

private typealias N = RealNALs

private func split(_ bytes: [UInt8]) -> [[UInt8]] {
  AnnexB.nalUnits(in: bytes).map(Array.init)
}

@Suite struct AnnexBTests {
  @Test func mixedStartCodes() {
    let stream = N.four + N.aud + N.four + N.spsMain30 + N.three + N.pps + N.three + N.idr
    #expect(split(stream) == [N.aud, N.spsMain30, N.pps, N.idr])
  }

  @Test func slicesKeepTheirOffsetsIntoTheInput() throws {
    let stream = N.three + N.aud + N.four + N.pps
    let units = AnnexB.nalUnits(in: stream)
    let second = try #require(units.last)
    #expect(second.startIndex == 3 + N.aud.count + 4)
    #expect(second.endIndex == stream.count)
  }

  @Test func emulationPreventionBytesDoNotSplit() {
    // 00 00 03 inside the SPS is escaped payload, not a start code.
    #expect(split(N.three + N.spsHigh31) == [N.spsHigh31])
  }

  @Test func noStartCodeMeansNoUnits() {
    #expect(split([]) == [])
    #expect(split([0x00, 0x00]) == [])
    #expect(split(N.idr) == [])
    // A start code with nothing after it.
    #expect(split(N.four) == [])
  }

  @Test func bytesBeforeTheFirstStartCodeAreSkipped() {
    #expect(split([0xAB, 0xCD] + N.three + N.idr) == [N.idr])
  }

  @Test func emptyUnitsBetweenStartCodesAreDropped() {
    #expect(split(N.three + N.three + N.four + N.idr) == [N.idr])
  }

  @Test func trailingZerosAtTheEndBelongToNoUnit() {
    #expect(split(N.three + N.idr + [0x00, 0x00, 0x00]) == [N.idr])
  }

  /// H.264 B.1: trailing_zero_8bits before a start code belong to neither NAL
  /// unit (and a NAL unit never ends in 0x00), wherever they occur.
  @Test
  func trailingZerosBeforeAStartCodeBelongToNoUnit() {
    let stream = N.three + N.idr + [0x00, 0x00] + N.four + N.pps
    #expect(split(stream) == [N.idr, N.pps])
  }
}
