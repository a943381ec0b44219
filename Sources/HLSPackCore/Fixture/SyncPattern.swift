/// When the labelled source flashes and beeps: frame numbers at irregular
/// intervals (from 1.5 to 3.5 s apart, each gap drawn from the seed), so that
/// no offset between picture and sound lines up a wrong pair of events the
/// way a regular metronome would.
public struct SyncPattern: Sendable, Equatable {
  public var frames: [Int]
  public var rate: FrameRate

  /// Events over `frameCount` frames, none in the first or last second
  /// (those frames are coloured start and end markers).
  public init(seed: String, frameCount: Int, rate: FrameRate) {
    self.rate = rate
    var generator = SeededGenerator(seed: seed)
    let perSecond = rate.value
    var frames: [Int] = []
    var time = 1.0
    while true {
      time += 1.5 + Double(generator.next() % 2001) / 1000
      let frame = Int((time * perSecond).rounded())
      guard Double(frame) < Double(frameCount) - perSecond else { break }
      frames.append(frame)
    }
    self.frames = frames
  }

  /// Event times in seconds (a frame's start).
  public var seconds: [Double] { frames.map { Double($0) / rate.value } }
}

/// SplitMix64 seeded with the FNV-1a hash of a text: the same seed gives the
/// same pattern on every machine and every run.
struct SeededGenerator {
  private var state: UInt64

  init(seed: String) {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in seed.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    state = hash
  }

  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}
