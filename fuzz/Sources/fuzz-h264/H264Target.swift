import FuzzSupport

/// H.264 parameter sets and slice headers, the avcC reader, the codec string
/// and the in-band parameter set check (`readVideoBitstream`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzH264(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  readVideoBitstream(fuzzInput(data, size), hevc: false)
  return 0
}
