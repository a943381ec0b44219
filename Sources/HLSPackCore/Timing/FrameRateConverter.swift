/// Turns frames with arbitrary timestamps into a constant frame rate, the way
/// FFmpeg's `fps` filter does with rounding to the nearest slot: a frame owns
/// slot round(t * fps); gaps repeat the previous frame; when two frames land on
/// one slot the newer wins. The caller holds the frames; this only counts.
public struct FrameRateConverter: Sendable {
  public let rate: FrameRate
  /// The next output slot to be filled.
  public private(set) var nextIndex: Int64 = 0
  private var heldIndex: Int64?

  public init(rate: FrameRate) { self.rate = rate }

  /// Registers a new input frame at `seconds` (from the start of the source).
  /// Returns how many times the previously held frame is emitted, at slots
  /// `nextIndex - count ..< nextIndex`; the new frame is held afterwards.
  public mutating func push(seconds: Double) -> Int64 {
    let index = max(0, Int64(saturating: (seconds * rate.value).rounded()))
    defer { heldIndex = index }
    guard heldIndex != nil else { return 0 }
    let count = max(0, index - nextIndex)
    nextIndex += count
    return count
  }

  /// At the end of input: how many times the held frame is still emitted. It
  /// lasts until `endSeconds` (its time plus its duration), as in FFmpeg's
  /// `fps` filter, so raising the rate does not cut the last frame short, and
  /// lowering it adds no slot at or after the end (a 4 s source at 50 fps
  /// makes 100 frames at 25, not 101: every rung must end where the source does).
  public mutating func finish(endSeconds: Double? = nil) -> Int64 {
    guard let held = heldIndex, held >= nextIndex else { return 0 }
    let end = endSeconds.map { Int64(saturating: ($0 * rate.value).rounded()) } ?? held + 1
    let count = max(0, end - nextIndex)
    nextIndex += count
    heldIndex = nil
    return count
  }
}
