import FuzzSupport
@testable import HLSPackCore

/// The init segment parsers: the layout `cbcs` reads, the protector that
/// rewrites it, the edit lists added after muxing. What the protector writes
/// must be readable by the fragment encryptor, and protected only once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInitSegment(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = fuzzInput(data, size)
  let trackCount = (try? InitSegmentLayout(input))?.tracks.count ?? 1
  if let protected = try? protector.protect(input) {
    precondition((try? InitSegmentLayout(protected, acceptProtected: true))?.tracks.count == trackCount, "protected init unreadable")
    precondition((try? protector.protect(protected)) == nil, "an init segment was protected twice")
    _ = try? CBCSFragmentEncryptor(initSegment: protected, cipher: XORChainCipher())
  }
  _ = try? CBCSFragmentEncryptor(initSegment: input, cipher: XORChainCipher())
  let mediaTimes = Array(repeating: (value: Int64(1024), timescale: Int64(48_000)), count: trackCount)
  if let edited = try? InitSegmentEditList.inserting(mediaTimes: mediaTimes, into: input) {
    precondition((try? InitSegmentEditList.inserting(mediaTimes: mediaTimes, into: edited)) == nil, "two edit lists in a trak")
  }
  return 0
}

private let protector: CBCSInitProtector = {
  do {
    return try CBCSInitProtector(keyID: Array(0..<16), constantIV: Array(16..<32))
  } catch {
    fatalError("key id and IV of 16 bytes: \(error)")
  }
}()
