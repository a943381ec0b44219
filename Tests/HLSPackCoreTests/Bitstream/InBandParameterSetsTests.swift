import Testing

@testable import HLSPackCore

/// Parameter sets a copied stream repeats in its samples: the ones its record
/// holds may leave the samples; any other stops the run.
@Suite struct InBandParameterSetsTests {
  let sps: [UInt8] = [0x67, 0x64, 0x00, 0x1F, 0xAC]
  let pps: [UInt8] = [0x68, 0xEE, 0x3C, 0x80]
  let start: [UInt8] = [0, 0, 0, 1]

  /// Annex B (from MPEG-TS): recorded sets and AUDs leave the sample, the
  /// other NAL units stay as they were; a changed set is named by its type.
  @Test func recordedSetsLeaveAndAChangedOneIsNamed() throws {
    let configuration: [[UInt8]] = [start, sps, start, pps]
    let sets = try InBandParameterSets(configuration: configuration.flatMap { $0 }, hevc: false)
    #expect(sets.lengthSize == nil)
    let aud: [UInt8] = [0x09, 0xF0]
    let sei: [UInt8] = [0x06, 0x05, 0x01, 0x80]
    let slice: [UInt8] = [0x65, 0x88, 0x84]
    let repeated: [[UInt8]] = [start, aud, start, sps, start, pps, start, sei, start, slice]
    let expected: [[UInt8]] = [start, sei, start, slice]
    #expect(sets.inspect(repeated.flatMap { $0 }) == .stripped(expected.flatMap { $0 }))
    #expect(sets.inspect(expected.flatMap { $0 }) == .unchanged)
    var changed = sps
    changed[2] = 0x40
    let newSPS: [[UInt8]] = [start, changed, start, pps, start, slice]
    #expect(sets.inspect(newSPS.flatMap { $0 }) == .unrecorded(nalType: 7))
    let longerPPS: [[UInt8]] = [start, sps, [0, 0, 1], pps, [0x01], start, slice]
    #expect(sets.inspect(longerPPS.flatMap { $0 }) == .unrecorded(nalType: 8))
  }

  /// Length-prefixed samples (from an avcC record with 4-byte lengths) keep
  /// that form: each NAL unit left keeps its length in front.
  @Test func lengthPrefixedSamplesKeepTheirLengths() throws {
    let head: [UInt8] = [1, 0x64, 0x00, 0x1F, 0xFF, 0xE1, 0, UInt8(sps.count)]
    let tail: [UInt8] = [1, 0, UInt8(pps.count)]
    let sets = try InBandParameterSets(configuration: head + sps + tail + pps, hevc: false)
    #expect(sets.lengthSize == 4)
    let slice: [UInt8] = [0x65, 0x88, 0x84, 0x21]
    func prefixed(_ unit: [UInt8]) -> [UInt8] { [0, 0, 0, UInt8(unit.count)] + unit }
    let sample: [UInt8] = prefixed(sps) + prefixed(pps) + prefixed(slice)
    #expect(sets.inspect(sample) == .stripped(prefixed(slice)))
    #expect(sets.inspect(prefixed(slice)) == .unchanged)
  }

  /// An hvcC with VPS, SPS, PPS and SEI arrays, all marked incomplete (FFmpeg's `hev1`).
  @Test func hvcCArraysOfParameterSetsBecomeComplete() {
    var record: [UInt8] = [1] + [UInt8](repeating: 0, count: 20) + [0x0F, 4]
    let arrays: [(UInt8, [UInt8])] = [
      (32, [0x40, 0x01]), (33, [0x42, 0x01, 0x05]), (34, [0x44, 0x01]), (39, [0x4E, 0x01, 0x05, 0x80]),
    ]
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
