import Foundation
import HLSPackCore
import HLSPackMedia

/// The sources of one asset in playback order: its input alone, or the parts
/// of an asset joined from several (`inputs[i].parts`). Every part is
/// packaged into the same renditions: its segments restart on its first
/// frame, numbered on from the part before, and its first segment follows an
/// EXT-X-DISCONTINUITY, since its timestamps, and in fMP4 its init segment,
/// start anew (RFC 8216bis §4.4.4.3).
struct AssetParts {
  struct Source {
    var file: URL
    var clear: Bool
    /// `inputs[i].parts[j].file`; nil for a plain input.
    var field: String?
    var producer: RenditionProducer
  }

  let asset: String
  let sources: [Source]
  /// Copy rungs: the parts' streams must be able to share each rendition.
  let copies: Bool

  /// Opens every source before any work, so that a part that cannot be read
  /// fails first, named.
  init(asset: String, sources: [(file: URL, clear: Bool, field: String?)], copies: Bool,
    open: (URL) throws -> RenditionProducer) throws
  {
    self.asset = asset
    self.copies = copies
    var opened: [Source] = []
    for source in sources {
      do {
        opened.append(Source(file: source.file, clear: source.clear, field: source.field, producer: try open(source.file)))
      } catch {
        throw Self.naming(error, file: source.file, field: source.field, asset: asset)
      }
    }
    self.sources = opened
  }

  /// The total length in seconds, when every part's is known (for progress).
  var duration: Double? {
    let lengths = sources.compactMap(\.producer.duration)
    return lengths.count == sources.count ? lengths.reduce(0, +) : nil
  }

  var hasAudio: Bool { sources.contains { $0.producer.hasAudio } }

  /// Each note once: a source joined twice (a pre-roll before and after) would repeat its own.
  var notes: [String] {
    var seen = Set<String>()
    return sources.flatMap(\.producer.notes).filter { seen.insert($0).inserted }
  }

  /// Every part has audio, or none has: a rendition's CODECS and audio
  /// playlists cannot describe sound that comes and goes.
  func checkAudio(wanted: Bool) throws {
    guard wanted, sources.count > 1, let first = sources.first else { return }
    for source in sources.dropFirst() where source.producer.hasAudio != first.producer.hasAudio {
      let (with, without) = source.producer.hasAudio ? (source, first) : (first, source)
      throw Self.naming(
        PackError.input(
          path: without.file.path,
          reason: "has no audio stream but \(with.field ?? with.file.path) has: every part needs audio, or none"),
        file: without.file, field: without.field, asset: asset)
    }
  }

  /// Runs every part into `writers` in turn; what was written of each
  /// rendition over all parts. `progress` gets the seconds done over all parts.
  func run(writers: [RenditionWriter], progress: (Double) -> Void) throws -> [WrittenStreamFacts] {
    var merged: [WrittenStreamFacts] = []
    var done = 0.0
    for (number, source) in sources.enumerated() {
      let start = writers.first?.acceptedTicks ?? 0
      let destinations = writers.map { $0.beginPart(number, clear: source.clear, start: start) }
      do {
        let facts = try source.producer.run(destinations: destinations) { progress(done + $0) }
        merged =
          number == 0
          ? facts : try zip(writers, zip(merged, facts)).map { try merge($1.0, $1.1, rendition: $0.name, part: source) }
      } catch {
        throw Self.naming(error, file: source.file, field: source.field, asset: asset)
      }
      done += source.producer.duration ?? 0
    }
    return merged
  }

  /// Puts each part's segments after the part before on the playlists'
  /// timeline, where its muxer started its own: part k starts where the first
  /// video rendition's part k − 1 ends, in every rendition, so that each
  /// discontinuity falls at the same media time in every playlist (EXTINF
  /// sums and program date-times run on across parts).
  func joinTimelines(_ writers: [RenditionWriter]) {
    guard sources.count > 1, let video = writers.first else { return }
    var next: Int64?
    for number in sources.indices {
      let own = video.records.filter { $0.part == number }
      guard let first = own.first else { continue }
      let shift = (next ?? first.startTicks) - first.startTicks
      if shift != 0 { for writer in writers { writer.shiftPart(number, by: shift) } }
      next = first.startTicks + shift + own.reduce(0) { $0 + $1.durationTicks }
    }
  }

  /// One rendition's facts over two parts. Copied streams must agree on
  /// codecs and picture size (the master's CODECS and RESOLUTION speak for
  /// every part); encoded rungs are fitted to the rung, and a level that
  /// differs (another frame rate) is listed too.
  private func merge(_ a: WrittenStreamFacts, _ b: WrittenStreamFacts, rendition: String, part: Source) throws
    -> WrittenStreamFacts
  {
    let describe = { (f: WrittenStreamFacts) in
      "\(f.codecs.joined(separator: ","))" + (f.width > 0 ? " \(f.width)x\(f.height)" : "") + " \(f.videoRange)"
    }
    if a.videoRange != b.videoRange || (copies && (a.codecs != b.codecs || a.width != b.width || a.height != b.height))
    {
      throw PackError.input(
        path: part.file.path,
        reason:
          "rendition \(rendition) is \(describe(b)) in this part but \(describe(a)) before it: the parts cannot share the rendition"
          + (copies ? " without re-encoding (use encoded rungs)" : ""))
    }
    var merged = a
    merged.codecs = []
    for i in 0..<max(a.codecs.count, b.codecs.count) {
      for codec in [a.codecs, b.codecs].compactMap({ i < $0.count ? $0[i] : nil }) where !merged.codecs.contains(codec) {
        merged.codecs.append(codec)
      }
    }
    merged.width = max(a.width, b.width)
    merged.height = max(a.height, b.height)
    merged.frameRate = max(a.frameRate, b.frameRate)
    merged.videoFrames = a.videoFrames + b.videoFrames
    return merged
  }

  /// An error of a part names the asset and where the profile names the part.
  static func naming(_ error: Error, file: URL, field: String?, asset: String) -> Error {
    guard let field else { return error }
    let reason: String
    switch error as? PackError {
    case .input(let path, let why)? where path == file.path: reason = why
    case .media(let path, let why)? where path == file.path: reason = why
    case let packError?: reason = packError.description
    case nil: reason = "\(error)"
    }
    return PackError.input(path: file.path, reason: "asset \"\(asset)\", \(field): \(reason)")
  }
}
