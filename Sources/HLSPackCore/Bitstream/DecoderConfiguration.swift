/// The NAL unit length size and parameter sets of an `avcC`
/// (ISO/IEC 14496-15 §5.3.3.1) or `hvcC` (§8.3.3.1) payload.
package struct DecoderConfiguration: Equatable {
  package var nalLengthSize: Int
  /// Parameter set NAL units (header included), in the record's order.
  package var parameterSets: [[UInt8]]
  /// hvcC: where each array's first byte (array_completeness and NAL type) sits.
  package var arrayHeaderOffsets: [Int] = []
  /// How many bytes the record took; a payload may run on past it.
  package var recordLength = 0

  package static func avc(_ c: [UInt8]) throws -> DecoderConfiguration {
    var r = ByteCursor(c, "avcC")
    guard try r.u8("configurationVersion") == 1 else {
      throw MediaFormatError.unsupportedBox("avcC configurationVersion is not 1")
    }
    try r.skip(3, "profile, compatibility, level")
    let lengthSize = Int(try r.u8("lengthSizeMinusOne") & 3) + 1
    var sets: [[UInt8]] = []
    let spsCount = Int(try r.u8("numOfSequenceParameterSets") & 0x1F)
    for _ in 0..<spsCount {
      sets.append(try r.bytes(Int(try r.u16("sequenceParameterSetLength")), "sequenceParameterSetNALUnit"))
    }
    let ppsCount = Int(try r.u8("numOfPictureParameterSets"))
    for _ in 0..<ppsCount {
      sets.append(try r.bytes(Int(try r.u16("pictureParameterSetLength")), "pictureParameterSetNALUnit"))
    }
    return DecoderConfiguration(
      nalLengthSize: try validated(lengthSize, "avcC"), parameterSets: sets, recordLength: r.offset)
  }

  package static func hevc(_ c: [UInt8]) throws -> DecoderConfiguration {
    var r = ByteCursor(c, "hvcC")
    guard try r.u8("configurationVersion") == 1 else {
      throw MediaFormatError.unsupportedBox("hvcC configurationVersion is not 1")
    }
    try r.skip(20, "profile, tier, level, chroma and bit depth fields")
    let lengthSize = Int(try r.u8("lengthSizeMinusOne") & 3) + 1
    var sets: [[UInt8]] = []
    var headers: [Int] = []
    let arrays = Int(try r.u8("numOfArrays"))
    for _ in 0..<arrays {
      headers.append(r.offset)
      _ = try r.u8("NAL_unit_type")
      let count = Int(try r.u16("numNalus"))
      for _ in 0..<count { sets.append(try r.bytes(Int(try r.u16("nalUnitLength")), "nalUnit")) }
    }
    return DecoderConfiguration(
      nalLengthSize: try validated(lengthSize, "hvcC"), parameterSets: sets, arrayHeaderOffsets: headers,
      recordLength: r.offset)
  }

  private static func validated(_ size: Int, _ box: String) throws -> Int {
    guard size != 3 else {
      throw MediaFormatError.unsupportedBox("\(box): NAL unit lengths of 3 bytes are not allowed")
    }
    return size
  }
}

/// Bounds-checked big-endian reads from a configuration record.
struct ByteCursor {
  private let bytes: [UInt8]
  private let box: String
  private(set) var offset = 0

  init(_ bytes: [UInt8], _ box: String) {
    self.bytes = bytes
    self.box = box
  }

  mutating func bytes(_ n: Int, _ field: String) throws -> [UInt8] {
    guard n >= 0, offset + n <= bytes.count else {
      throw MediaFormatError.malformedBox("\(box): \(field) runs past the end of the box")
    }
    defer { offset += n }
    return Array(bytes[offset..<offset + n])
  }

  mutating func skip(_ n: Int, _ field: String) throws { _ = try bytes(n, field) }

  mutating func u8(_ field: String) throws -> UInt8 { try bytes(1, field)[0] }

  mutating func u16(_ field: String) throws -> UInt16 {
    let b = try bytes(2, field)
    return UInt16(b[0]) << 8 | UInt16(b[1])
  }
}
