import HLSPackCore
import Testing

struct DecodeTimestampsTests {
  /// The first packets of a Matroska file with two B-frames, as libavformat
  /// 5.1 hands them over (ms): PTS 21, 101, 61, 141, ... and DTS only from the
  /// third packet on, where it is 21, 61, ...
  @Test func fillsTheMissingLeadingDTSOfAStreamWithBFrames() throws {
    var timestamps = DecodeTimestamps(reorderDelay: 2, frameDuration: 40)
    let given: [(Int64?, Int64?)] = [(21, nil), (101, nil), (61, 21), (141, 61), (181, 101)]
    let filled = try given.map { try timestamps.next(pts: $0.0, dts: $0.1, duration: 40) }
    #expect(filled.map(\.dts) == [-59, -19, 21, 61, 101])
    #expect(filled.map(\.pts) == [21, 101, 61, 141, 181])
  }

  @Test func aDTSMissingMidStreamFollowsThePreviousOne() throws {
    var timestamps = DecodeTimestamps(reorderDelay: 0, frameDuration: 3600)
    _ = try timestamps.next(pts: 0, dts: 0, duration: 3600)
    #expect(try timestamps.next(pts: 3600, dts: nil, duration: 0).dts == 3600)
  }

  @Test func withoutBFramesTheDTSIsThePTS() throws {
    var timestamps = DecodeTimestamps(reorderDelay: 0, frameDuration: 40)
    #expect(try timestamps.next(pts: nil, dts: 80, duration: 40) == (80, 80))
  }

  @Test func aRawStreamWithoutTimestampsIsRefused() {
    var timestamps = DecodeTimestamps(reorderDelay: 2, frameDuration: 40)
    #expect(throws: DecodeTimestamps.Problem.none(packet: 0)) {
      try timestamps.next(pts: nil, dts: nil, duration: 48000)
    }
  }

  @Test func presentationOrderCannotBeGuessedWithBFrames() {
    var timestamps = DecodeTimestamps(reorderDelay: 1, frameDuration: 40)
    #expect(throws: DecodeTimestamps.Problem.noPresentationTime(packet: 0)) {
      try timestamps.next(pts: nil, dts: 0, duration: 40)
    }
  }

  @Test func decodeTimesThatGoBackAreRefused() throws {
    var timestamps = DecodeTimestamps(reorderDelay: 0, frameDuration: 40)
    _ = try timestamps.next(pts: 40, dts: 40, duration: 40)
    #expect(throws: DecodeTimestamps.Problem.outOfOrder(packet: 1, pts: 40, dts: 40)) {
      try timestamps.next(pts: 40, dts: 40, duration: 40)
    }
  }
}
