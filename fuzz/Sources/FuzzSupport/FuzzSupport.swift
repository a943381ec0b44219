@testable import HLSPackCore

/// The bytes libFuzzer hands a target, as an array.
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
  Array(UnsafeBufferPointer(start: data, count: size))
}

/// A stand-in for AES-CBC that touches every byte of every run, so that a
/// run outside the buffer traps, and checks that runs are whole 16-byte
/// blocks in order, as the protocol promises.
public final class XORChainCipher: CBCSChainCipher {
  public init() {}

  public func encryptChain(_ bytes: inout [UInt8], runs: [Range<Int>]) throws {
    var previousEnd = Int.min
    for run in runs {
      precondition(run.count % 16 == 0 && run.lowerBound >= previousEnd, "cipher run \(run) is not whole blocks in order")
      for i in run { bytes[i] ^= 0x5A }
      previousEnd = run.upperBound
    }
  }
}

/// NAL units of an Annex B stream, each behind a 4-byte big-endian length, as in an MP4 sample.
public func lengthPrefixedSample(annexB: [UInt8]) -> [UInt8] {
  var sample: [UInt8] = []
  for unit in AnnexB.nalUnits(in: annexB) {
    sample += [UInt8(unit.count >> 24 & 0xFF), UInt8(unit.count >> 16 & 0xFF), UInt8(unit.count >> 8 & 0xFF), UInt8(unit.count & 0xFF)]
    sample += unit
  }
  return sample
}

/// H.264 or HEVC bytes as the fuzz targets read them: as an Annex B stream
/// made into one length-prefixed sample that the `cbcs` subsample mapper reads
/// in order (parameter sets learnt, then slice headers measured), whose
/// subsamples must cover the sample exactly, each clear count within senc's
/// 16 bits; as Annex B parameter sets or an avcC/hvcC record for the codec
/// string; and as the record whose parameter sets a sample may carry.
public func readVideoBitstream(_ input: [UInt8], hevc: Bool) {
  let sample = lengthPrefixedSample(annexB: input)
  let configuration = DecoderConfiguration(nalLengthSize: 4, parameterSets: [])
  if let mapper = try? CBCSSubsampleMapper(codec: hevc ? .hevc : .h264, configuration: configuration),
    let subsamples = try? mapper.subsamples(sample, sample: 0..<sample.count)
  {
    precondition(subsamples.allSatisfy { (0...CBCSSubsampleMapper.maxClear).contains($0.clear) && $0.protected >= 0 }, "subsample out of range")
    precondition(subsamples.reduce(0) { $0 + $1.clear + $1.protected } == sample.count, "subsamples do not add up to the sample")
  }
  _ = CodecString.video(hevc: hevc, parameterSets: input, extradata: [])
  _ = CodecString.video(hevc: hevc, parameterSets: [], extradata: input)
  if let parameterSets = try? InBandParameterSets(configuration: input, hevc: hevc) {
    _ = parameterSets.inspect(sample)
  }
}
