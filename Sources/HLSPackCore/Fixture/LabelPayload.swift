/// The text of the QR code burned into every labelled frame, and its reader:
/// `HLSPACK/1 r=<rendition name> f=<frame number from 0> t=<media time in ms>`.
/// The version prefix lets a reader refuse codes of a later layout.
public struct LabelPayload: Sendable, Equatable, CustomStringConvertible {
  public static let prefix = "HLSPACK/1"

  public var rendition: String
  public var frame: Int
  /// Media time in whole milliseconds (rounded down).
  public var milliseconds: Int

  public init(rendition: String, frame: Int, milliseconds: Int) {
    self.rendition = rendition
    self.frame = frame
    self.milliseconds = milliseconds
  }

  /// Frame `frame` of a rendition at `rate`: its time from the frame number
  /// alone, in exact integer arithmetic so that writer and reader agree.
  public init(rendition: String, frame: Int, rate: FrameRate) {
    let ms = Int64(frame) * Int64(rate.denominator) * 1000 / Int64(max(1, rate.numerator))
    self.init(rendition: rendition, frame: frame, milliseconds: Int(ms))
  }

  public var description: String { "\(Self.prefix) r=\(rendition) f=\(frame) t=\(milliseconds)" }

  /// Reads a payload; nil for any other text (a code from something else in the picture).
  public init?(parsing text: String) {
    let words = text.split(separator: " ", omittingEmptySubsequences: false)
    guard words.count == 4, words[0] == Self.prefix,
      words[1].hasPrefix("r="), words[2].hasPrefix("f="), words[3].hasPrefix("t="),
      let frame = Int(words[2].dropFirst(2)), frame >= 0,
      let ms = Int(words[3].dropFirst(2)), ms >= 0
    else { return nil }
    let rendition = String(words[1].dropFirst(2))
    guard !rendition.isEmpty else { return nil }
    self.init(rendition: rendition, frame: frame, milliseconds: ms)
  }
}
