import Testing

@testable import HLSPackCore

/// Parameter sets a copied stream repeats in its samples: the ones its record
/// holds may leave the samples; any other stops the run.
@Suite struct InBandParameterSetsTests {
  let sps: [UInt8] = [0x67, 0x64, 0x00, 0x1F, 0xAC]
  let pps: [UInt8] = [0x68, 0xEE, 0x3C, 0x80]
  let start: [UInt8] = [0, 0, 0, 1]

  @Test func recordedSetsPassAndAChangedOneIsNamed() throws {
    let configuration: [[UInt8]] = [start, sps, start, pps]
    let sets = try InBandParameterSets(configuration: configuration.flatMap { $0 }, hevc: false)
    #expect(sets.lengthSize == nil && sets.removedTypes == [7, 8, 9])
    let aud: [UInt8] = [0x09, 0xF0]
    let slice: [UInt8] = [0x65, 0x88, 0x84]
    let repeated: [[UInt8]] = [start, aud, start, sps, start, pps, start, slice]
    #expect(sets.unrecorded(in: repeated.flatMap { $0 }) == nil)
    var changed = sps
    changed[2] = 0x40
    let newSPS: [[UInt8]] = [start, changed, start, pps, start, slice]
    #expect(sets.unrecorded(in: newSPS.flatMap { $0 }) == 7)
    let longerPPS: [[UInt8]] = [start, sps, [0, 0, 1], pps, [0x01], start, slice]
    #expect(sets.unrecorded(in: longerPPS.flatMap { $0 }) == 8)
  }

  /// An hvcC with VPS, SPS, PPS and SEI arrays, all marked incomplete (FFmpeg's `hev1`).
  @Test func hvcCArraysOfParameterSetsBecomeComplete() {
    var record: [UInt8] = [1] + [UInt8](repeating: 0, count: 20) + [0x0F, 4]
    let arrays: [(UInt8, [UInt8])] = [(32, [0x40, 0x01]), (33, [0x42, 0x01, 0x05]), (34, [0x44, 0x01]), (39, [0x4E, 0x01, 0x05, 0x80])]
    for (type, unit) in arrays {
      record += [type, 0, 1, 0, UInt8(unit.count)]
      record += unit
    }
    let complete = InBandParameterSets.completeHVCC(record)
    #expect(complete.count == record.count)
    let flags: [UInt8] = [23, 30, 38, 45].map { complete[$0] }
    let expected: [UInt8] = [0x80 | 32, 0x80 | 33, 0x80 | 34, 39]
    #expect(flags == expected)
    // A record that does not add up is left as it is.
    #expect(InBandParameterSets.completeHVCC(Array(record.dropLast())) == Array(record.dropLast()))
  }
}
