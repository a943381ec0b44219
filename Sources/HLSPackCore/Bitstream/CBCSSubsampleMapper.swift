/// One `senc` subsample: clear bytes, then protected bytes.
public struct CBCSSubsample: Equatable, Sendable {
  public var clear: Int
  public var protected: Int

  public init(clear: Int, protected: Int) {
    self.clear = clear
    self.protected = protected
  }
}

/// Splits length-prefixed H.264 or HEVC samples into `cbcs` subsamples
/// (ISO/IEC 23001-7, subsample encryption): every non-VCL NAL unit with its length field stays clear
/// and joins the clear bytes of the next subsample; a slice keeps its length
/// field, NAL unit header and slice header clear and protects the rest.
/// Parameter sets come from the sample entry's avcC/hvcC and from any sent
/// in the samples themselves, in stream order.
package final class CBCSSubsampleMapper {
  package enum Codec {
    case h264
    case hevc
  }

  package let codec: Codec
  package let nalLengthSize: Int
  private var h264SPS: [Int: H264SPS] = [:]
  private var h264PPS: [Int: H264PPS] = [:]
  private var hevcSPS: [Int: HEVCSPS] = [:]
  private var hevcPPS: [Int: HEVCPPS] = [:]

  /// Largest clear count of one subsample entry (uint16); larger ones split into (65535, 0) entries.
  package static let maxClear = 65535

  package init(codec: Codec, configuration: DecoderConfiguration) throws {
    self.codec = codec
    nalLengthSize = configuration.nalLengthSize
    for set in configuration.parameterSets where !set.isEmpty {
      _ = try learnParameterSet(set, 0..<set.count)
    }
  }

  /// One NAL unit of a sample: its bytes and, for a slice, the length of its
  /// NAL unit header plus slice header in escaped bytes.
  package struct NALUnit: Equatable {
    package var range: Range<Int>
    package var headerLength: Int?
  }

  /// The subsamples of `sample` (a range of `bytes`); their sizes add up to the sample's.
  package func subsamples(_ bytes: [UInt8], sample: Range<Int>) throws -> [CBCSSubsample] {
    var result: [CBCSSubsample] = []
    var clear = 0
    for nal in try nalUnits(bytes, sample: sample) {
      guard let header = nal.headerLength else {
        clear += nalLengthSize + nal.range.count
        continue
      }
      clear += nalLengthSize + header
      let protected = nal.range.count - header
      guard protected > 0 else { continue }
      Self.append(clear: clear, protected: protected, to: &result)
      clear = 0
    }
    if clear > 0 || result.isEmpty { Self.append(clear: clear, protected: 0, to: &result) }
    return result
  }

  /// The NAL units of `sample` in order; parameter sets among them are learnt
  /// before the slices that follow are read.
  package func nalUnits(_ bytes: [UInt8], sample: Range<Int>) throws -> [NALUnit] {
    var units: [NALUnit] = []
    var offset = sample.lowerBound
    while offset < sample.upperBound {
      guard sample.upperBound - offset >= nalLengthSize else {
        throw MediaFormatError.malformedBitstream(
          where: "NAL unit length", reason: "\(sample.upperBound - offset) stray bytes at the end of the sample")
      }
      var length = 0
      for i in 0..<nalLengthSize { length = length << 8 | Int(bytes[offset + i]) }
      let nal = (offset + nalLengthSize)..<(offset + nalLengthSize + length)
      guard length > 0, nal.upperBound <= sample.upperBound else {
        throw MediaFormatError.malformedBitstream(
          where: "NAL unit length",
          reason:
            "\(length) at sample offset \(offset - sample.lowerBound) does not fit the \(sample.count)-byte sample")
      }
      offset = nal.upperBound
      if try learnParameterSet(bytes, nal) || !isVCL(bytes, nal) {
        units.append(NALUnit(range: nal, headerLength: nil))
      } else {
        units.append(NALUnit(range: nal, headerLength: try headerLength(bytes, nal)))
      }
    }
    return units
  }

  package static func append(clear: Int, protected: Int, to result: inout [CBCSSubsample]) {
    var clear = clear
    while clear > maxClear {
      result.append(CBCSSubsample(clear: maxClear, protected: 0))
      clear -= maxClear
    }
    result.append(CBCSSubsample(clear: clear, protected: protected))
  }

  /// NAL unit header plus slice header, in escaped bytes.
  private func headerLength(_ bytes: [UInt8], _ nal: Range<Int>) throws -> Int {
    switch codec {
    case .h264:
      return try 1 + H264SliceHeader.length(bytes, nal, sps: h264SPS, pps: h264PPS)
    case .hevc:
      guard nal.count >= 2 else {
        throw MediaFormatError.malformedBitstream(
          where: "HEVC NAL unit header", reason: "the NAL unit is \(nal.count) byte")
      }
      return try 2 + HEVCSliceHeader.length(bytes, nal, sps: hevcSPS, pps: hevcPPS)
    }
  }

  private func isVCL(_ bytes: [UInt8], _ nal: Range<Int>) -> Bool {
    switch codec {
    // 1–5 slices and partitions, 20/21 MVC/3D slice extensions (refused by the header parser).
    case .h264: [1, 2, 3, 4, 5, 20, 21].contains(bytes[nal.lowerBound] & 0x1F)
    case .hevc: HEVCNALHeader.type(bytes, nal.lowerBound) < 32
    }
  }

  /// Records an SPS or PPS; false for any other NAL unit.
  private func learnParameterSet(_ bytes: [UInt8], _ nal: Range<Int>) throws -> Bool {
    switch codec {
    case .h264:
      switch bytes[nal.lowerBound] & 0x1F {
      case 7:
        let sps = try H264SPS(bytes, nal)
        h264SPS[sps.id] = sps
      case 8:
        let pps = try H264PPS(bytes, nal)
        h264PPS[pps.id] = pps
      default: return false
      }
    case .hevc:
      guard nal.count >= 2 else { return false }
      switch HEVCNALHeader.type(bytes, nal.lowerBound) {
      case 33:
        let sps = try HEVCSPS(bytes, nal)
        hevcSPS[sps.id] = sps
      case 34:
        let pps = try HEVCPPS(bytes, nal)
        hevcPPS[pps.id] = pps
      default: return false
      }
    }
    return true
  }
}
