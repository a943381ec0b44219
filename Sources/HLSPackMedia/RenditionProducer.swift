import HLSPackCore

/// Makes the renditions of one asset; `destinations[i]` receives rendition i's
/// segments on that rendition's thread, and `progress` is called on the
/// calling thread with source seconds done.
public protocol RenditionProducer {
  var duration: Double? { get }
  var hasAudio: Bool { get }
  /// What the user should know about the sources and what was decided for
  /// them, before the work: each a sentence naming the file.
  var notes: [String] { get }
  func run(destinations: [SegmentDestination], progress: (Double) -> Void) throws -> [WrittenStreamFacts]
}
