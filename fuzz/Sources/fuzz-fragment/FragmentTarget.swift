import FuzzSupport
@testable import HLSPackCore

/// The movie fragment parsers: the input is an init segment (ftyp + moov)
/// followed by a media segment (moof + mdat …), as `cat init.mp4 seg.m4s`
/// writes them. The fragment encryptor reads the init segment, then
/// encrypts the segment, which keeps its top-level boxes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFragment(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = fuzzInput(data, size)
  guard let top = try? ISOBox.children(of: input, in: 0..<input.count, context: "fuzz input") else { return 0 }
  let split = top.first { $0.type != "ftyp" && $0.type != "moov" }?.start ?? input.count
  let initSegment = Array(input[..<split]), segment = Array(input[split...])
  if let end = FragmentLayout.firstSampleEnd(segment) { precondition(end <= segment.count, "first sample past the segment") }
  guard let encryptor = try? CBCSFragmentEncryptor(initSegment: initSegment, cipher: XORChainCipher()),
    let encrypted = try? encryptor.encrypt(segment)
  else { return 0 }
  let boxes = try? ISOBox.children(of: encrypted, in: 0..<encrypted.count, context: "encrypted")
  precondition(boxes?.map(\.type) == top.filter { $0.start >= split }.map(\.type), "the encrypted segment's boxes changed")
  return 0
}
