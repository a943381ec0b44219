/// What `hlspack fixture check` reports about a recording of a player: which
/// labelled frames it showed, which it skipped or held, which renditions and
/// where it switched, and how far the sound was from the picture.
public struct PlaybackReport: Codable, Sendable, Equatable {
  public struct Switch: Codable, Sendable, Equatable {
    /// The first frame shown from the new rendition.
    public var frame: Int
    public var from: String
    public var to: String
  }

  /// Pictures of the recording.
  public var pictures: Int
  /// Pictures whose label was read.
  public var labelledPictures: Int
  /// Distinct frame numbers seen.
  public var framesSeen: Int
  public var firstFrame: Int?
  public var lastFrame: Int?
  /// Frame numbers between the first and the last seen that were never shown.
  public var missingFrames: [Int]
  /// Frame numbers shown in more than one run of pictures, or held over
  /// more pictures than the recording's rate explains (a freeze).
  public var repeatedFrames: [Int]
  public var renditions: [String]
  public var switches: [Switch]
  /// Beep onset minus flash time, averaged over the events found; positive when sound is late.
  public var avOffsetMs: Double?
  public var syncEventsMeasured: Int

  enum CodingKeys: String, CodingKey {
    case pictures, renditions, switches
    case labelledPictures = "labelled_pictures"
    case framesSeen = "frames_seen"
    case firstFrame = "first_frame"
    case lastFrame = "last_frame"
    case missingFrames = "missing_frames"
    case repeatedFrames = "repeated_frames"
    case avOffsetMs = "av_offset_ms"
    case syncEventsMeasured = "sync_events_measured"
  }

  /// `labels[i]` is picture i's label (nil when unread), `flashes` the times
  /// of pictures whose top eighth flashed, `beeps` the onsets of beeps.
  public init(labels: [LabelPayload?], flashes: [Double], beeps: [Double]) {
    pictures = labels.count
    let read = labels.compactMap { $0 }
    labelledPictures = read.count
    let numbers = Set(read.map(\.frame))
    framesSeen = numbers.count
    firstFrame = numbers.min()
    lastFrame = numbers.max()
    if let first = firstFrame, let last = lastFrame {
      missingFrames = (first...last).filter { !numbers.contains($0) }
    } else {
      missingFrames = []
    }
    // Runs of pictures with the same frame number: a player that holds a
    // frame while it skips the next ones shows it over a longer run than
    // the frames around it.
    var runs: [(frame: Int, length: Int)] = []
    for label in read {
      if let last = runs.last, last.frame == label.frame {
        runs[runs.count - 1].length += 1
      } else {
        runs.append((label.frame, 1))
      }
    }
    let typical = runs.map(\.length).sorted()[safe: runs.count / 2] ?? 1
    var repeated = Set<Int>()
    var seenRuns = Set<Int>()
    for run in runs {
      if seenRuns.contains(run.frame) || run.length > typical { repeated.insert(run.frame) }
      seenRuns.insert(run.frame)
    }
    repeatedFrames = repeated.sorted()
    var names: [String] = []
    var switches: [Switch] = []
    for (previous, current) in zip(read, read.dropFirst()) where previous.rendition != current.rendition {
      switches.append(Switch(frame: current.frame, from: previous.rendition, to: current.rendition))
    }
    for label in read where !names.contains(label.rendition) { names.append(label.rendition) }
    renditions = names
    self.switches = switches
    // Each flash paired with the nearest beep within half a second.
    let offsets = flashes.compactMap { flash -> Double? in
      guard let beep = beeps.min(by: { abs($0 - flash) < abs($1 - flash) }), abs(beep - flash) < 0.5 else { return nil }
      return (beep - flash) * 1000
    }
    syncEventsMeasured = offsets.count
    avOffsetMs = offsets.isEmpty ? nil : offsets.reduce(0, +) / Double(offsets.count)
  }
}

extension Array {
  fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
