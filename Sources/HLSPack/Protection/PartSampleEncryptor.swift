import HLSPackCore

/// The sample encryptor of a later part of a joined asset: that part's muxer
/// numbers its segments from 0, the rendition's keys and IVs follow the
/// rendition's own numbering, which runs on from the parts before.
final class PartSampleEncryptor: SampleEncryptor {
  private let base: SampleEncryptor
  private let firstSegment: Int

  init(_ base: SampleEncryptor, firstSegment: Int) {
    self.base = base
    self.firstSegment = firstSegment
  }

  func encrypt(_ payload: [UInt8], kind: SampleKind, segment: Int) throws -> [UInt8]? {
    try base.encrypt(payload, kind: kind, segment: firstSegment + segment)
  }

  func signalEncryption(_ packets: inout [UInt8], segment index: Int, audioPID: UInt16?, audioConfig: [UInt8]) throws {
    try base.signalEncryption(&packets, segment: firstSegment + index, audioPID: audioPID, audioConfig: audioConfig)
  }
}
