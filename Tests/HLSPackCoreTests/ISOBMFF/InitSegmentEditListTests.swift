import HLSPackTestSupport
import Testing

@testable import HLSPackCore

/// The edit list every fMP4 track gets (ISO/IEC 14496-12 §8.6.6), byte by byte.
@Suite struct InitSegmentEditListTests {
  static func trak(id: Int, timescale: Int) -> [UInt8] {
    let tkhd = box("tkhd", [0, 0, 0, 3] + be32(0) + be32(0) + be32(id) + [UInt8](repeating: 0, count: 68))
    // mdhd version 0: creation and modification times, timescale, duration, language.
    let mdhd = box("mdhd", be32(0) + be32(0) + be32(0) + be32(timescale) + be32(0) + be32(0))
    return box("trak", tkhd + box("mdia", mdhd))
  }

  static func initSegment(timescales: [Int]) -> [UInt8] {
    let ftyp = box("ftyp", Array("iso5".utf8) + be32(512) + Array("iso5iso6".utf8))
    let traks = timescales.enumerated().flatMap { trak(id: $0.offset + 1, timescale: $0.element) }
    return ftyp + box("moov", box("mvhd", [UInt8](repeating: 0, count: 100)) + traks + box("mvex", []))
  }

  @Test func everyTrackGetsOneEditAfterItsHeaderInItsOwnTimescale() throws {
    let clear = Self.initSegment(timescales: [12800, 48000])
    // Video: 0.08 s, two frames of B-frame delay at 25 fps; audio: 1024 samples of AAC priming.
    let edited = try InitSegmentEditList.inserting(mediaTimes: [(1024, 12800), (1024, 48000)], into: clear)
    #expect(edited.count == clear.count + 2 * 36)
    let top = try ISOBox.children(of: edited, in: 0..<edited.count, context: "test")
    #expect(top.map(\.type) == ["ftyp", "moov"])
    let traks = try ISOBox.children(of: edited, in: top[1].payloadRange, context: "moov").filter { $0.type == "trak" }
    for (trak, mediaTime) in zip(traks, [1024, 1024]) {
      let children = try ISOBox.children(of: edited, in: trak.payloadRange, context: "trak")
      #expect(children.map(\.type) == ["tkhd", "edts", "mdia"])
      #expect(
        Array(edited[children[1].range]) == [
          0, 0, 0, 36, 0x65, 0x64, 0x74, 0x73,  // edts
          0, 0, 0, 28, 0x65, 0x6C, 0x73, 0x74,  // elst
          0, 0, 0, 0,  // version 0, flags 0
          0, 0, 0, 1,  // entry_count
          0, 0, 0, 0,  // segment_duration: the whole fragmented track
        ] + be32(mediaTime)  // media_time
          + [0, 1, 0, 0])  // media_rate 1.0
    }
  }

  @Test func aTimeInAnotherTimescaleIsConvertedToTheTracks() throws {
    // 0.08 s in 90 kHz ticks, for a 12800 track; and half a 48 kHz sample rounds up.
    for (time, timescale, expected) in [((7200, 90000), 12800, 1024), ((1, 96000), 48000, 1)]
      as [((Int64, Int64), Int, Int)]
    {
      let edited = try InitSegmentEditList.inserting(
        mediaTimes: [time], into: Self.initSegment(timescales: [timescale]))
      let elst = try #require(edited.indices.first { edited[$0..<$0 + 4].elementsEqual("elst".utf8) })
      #expect(Int(readBE32(edited, elst + 16)) == expected)
    }
  }

  @Test func refusesWhatItCannotEdit() throws {
    let edited = try InitSegmentEditList.inserting(
      mediaTimes: [(7200, 90000)], into: Self.initSegment(timescales: [90000]))
    #expect(throws: MediaFormatError.self) {
      try InitSegmentEditList.inserting(mediaTimes: [(7200, 90000)], into: edited)
    }
    #expect(throws: MediaFormatError.self) {
      try InitSegmentEditList.inserting(mediaTimes: [(7200, 90000)], into: Self.initSegment(timescales: [0]))
    }
    #expect(throws: MediaFormatError.self) {
      try InitSegmentEditList.inserting(
        mediaTimes: [(7200, 90000)], into: Self.initSegment(timescales: [90000, 48000]))
    }
    #expect(throws: MediaFormatError.self) {
      try InitSegmentEditList.inserting(mediaTimes: [(1 << 40, 90000)], into: Self.initSegment(timescales: [90000]))
    }
  }
}
