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
  /// Rewrites the PMT among whole MPEG-TS packets of segment `index` so that an
  /// encrypted segment announces its encrypted streams (Apple MPEG-2 Stream
  /// Encryption §3). `audioPID`/`audioConfig`: the audio
  /// stream's PID and codec configuration (AAC AudioSpecificConfig).
  func signalEncryption(_ packets: inout [UInt8], segment index: Int, audioPID: UInt16?, audioConfig: [UInt8]) throws
}

/// Where one rendition's segments go, handed to the muxer together with the
/// sample encryptor it runs before muxing: only SAMPLE-AES in MPEG-TS has one
/// (`SegmentProtection.sampleAESTransportStream`); every other protection
/// happens past the sink.
public struct SegmentDestination {
  public var sink: SegmentSink
  public var sampleEncryptor: SampleEncryptor?

  public init(sink: SegmentSink, sampleEncryptor: SampleEncryptor? = nil) {
    self.sink = sink
    self.sampleEncryptor = sampleEncryptor
  }
}
