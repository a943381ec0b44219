/// How far into its media every track of an fMP4 presentation starts to be
/// shown (the edit list's media time, 90 kHz): from the earliest first decode
/// time of any rendition to the first picture. Players that place fragments by
/// their decode time (tfdt) then find a picture at the start instead of a hole
/// as long as the B-frame delay or the AAC priming, and one shift for every
/// track keeps audio, video and subtitles in step in players that apply edit
/// lists. MPEG-TS has no edit lists; there it is 0.
public enum PresentationShift {
  /// `firstPicture`: the first segment's start; `decodeStarts`: each
  /// rendition's first decode time.
  public static func ticks(firstPicture: Int64, decodeStarts: [Int64]) -> Int64 {
    max(0, firstPicture - (decodeStarts.min() ?? firstPicture))
  }
}
