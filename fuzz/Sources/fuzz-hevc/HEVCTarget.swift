import FuzzSupport
import HLSPackCore

/// HEVC parameter sets and slice segment headers, the hvcC reader, the codec
/// string and the in-band parameter set check (`readVideoBitstream`); also
/// the array_completeness rewrite of an hvcC record, which keeps its size.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHEVC(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = fuzzInput(data, size)
  readVideoBitstream(input, hevc: true)
  precondition(InBandParameterSets.completeHVCC(input).count == input.count, "completeHVCC changed the record's size")
  return 0
}
