/// What kind of elementary-stream payload is being written.
public enum SampleKind: Sendable, Equatable {
  /// An H.264 access unit in Annex B.
  case h264
  /// A raw AAC access unit (the TS muxer adds the ADTS header).
  case aac
  /// One or more AC-3 syncframes.
  case ac3
}

/// Encrypts elementary-stream payloads inside segments (SAMPLE-AES). The muxer
/// calls it on the rendition's thread right before each packet is written, and
/// with every part of the segment's bytes before they go to the sink.
public protocol SampleEncryptor: AnyObject {
  /// The encrypted payload, or nil to write it clear (a clear-lead segment).
  func encrypt(_ payload: [UInt8], kind: SampleKind, segment: Int) throws -> [UInt8]?
  /// Adjusts whole MPEG-TS packets of segment `index` (the PMT of an encrypted
  /// segment announces encrypted streams). `audioPID`/`audioConfig`: the audio
  /// stream's PID and codec configuration (AAC AudioSpecificConfig).
  func adjust(_ packets: inout [UInt8], segment index: Int, audioPID: UInt16?, audioConfig: [UInt8]) throws
}

extension SegmentSink {
  /// The sink's sample encryptor, when its rendition uses SAMPLE-AES.
  public var sampleEncryptor: SampleEncryptor? { (self as? SampleEncryptorProviding)?.sampleEncryptor }
}

/// A sink whose rendition encrypts samples.
public protocol SampleEncryptorProviding {
  var sampleEncryptor: SampleEncryptor? { get }
}
