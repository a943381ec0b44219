/// Gives each track of an fMP4 init segment an edit list (`edts`/`elst`,
/// ISO/IEC 14496-12 §8.6.6) with one edit: presentation starts at the
/// track's media time `mediaTimes[i]` (written in the track's own timescale),
/// for the whole fragmented duration (segment_duration 0), at normal rate; as
/// Shaka Packager writes them.
///
/// With each track's timestamps counting from its first decode time (or from
/// the first picture, if it starts later), the media time is what the track
/// has before the first picture: the B-frame delay of video, the encoder's
/// priming of AAC (which FFmpeg skips by this number of samples). Players
/// that place fragments by their decode time (hls.js: tfdt) then find a
/// picture at the start instead of a hole. The mov muxer cannot write these
/// edits into an empty moov, so they are added to the finished init segment.
public enum InitSegmentEditList {
  /// `mediaTimes`: one per `trak`, in order, as `value / timescale` seconds;
  /// exact when `timescale` is the track's (the mov muxer's stream time base).
  public static func inserting(mediaTimes: [(value: Int64, timescale: Int64)], into initSegment: [UInt8]) throws
    -> [UInt8]
  {
    let top = try ISOBox.children(of: initSegment, in: 0..<initSegment.count, context: "init segment")
    let moov = try ISOBox.single("moov", in: top, context: "init segment")
    let traks = try ISOBox.children(of: initSegment, in: moov.payloadRange, context: "moov").filter {
      $0.type == "trak"
    }
    guard traks.count == mediaTimes.count else {
      throw MediaFormatError.malformedBox("\(traks.count) traks for \(mediaTimes.count) edit lists")
    }
    var insertions: [ISOBox.Insertion] = []
    for (trak, time) in zip(traks, mediaTimes) {
      let children = try ISOBox.children(of: initSegment, in: trak.payloadRange, context: "trak")
      guard !children.contains(where: { $0.type == "edts" }) else {
        throw MediaFormatError.malformedBox("a trak already has an edit list; the mov muxer was asked for none")
      }
      let tkhd = try ISOBox.single("tkhd", in: children, context: "trak")
      let timescale = Int64(try mediaTimescale(initSegment, trak: children))
      guard time.timescale > 0 else {
        throw MediaFormatError.malformedBox("edit list media time in timescale \(time.timescale)")
      }
      let mediaTime =
        time.timescale == timescale ? time.value : (time.value * timescale + time.timescale / 2) / time.timescale
      guard let mediaTime32 = Int32(exactly: mediaTime), mediaTime32 >= 0 else {
        throw MediaFormatError.malformedBox(
          "edit list media time \(mediaTime) at timescale \(timescale) is outside a version 0 elst's range")
      }
      // ISO/IEC 14496-12 box order: the edit list follows the track header.
      insertions.append(.init(offset: tkhd.end, bytes: box(mediaTime: mediaTime32), enclosing: [moov, trak]))
    }
    return try ISOBox.inserting(insertions, into: initSegment)
  }

  private static func box(mediaTime: Int32) -> [UInt8] {
    var elst = BoxWriter()
    elst.versionAndFlags(0, 0)
    elst.u32(1)  // entry_count
    elst.u32(0)  // segment_duration: the whole (fragmented) track
    elst.u32(UInt32(bitPattern: mediaTime))
    elst.u16(1)  // media_rate_integer
    elst.u16(0)  // media_rate_fraction
    return BoxWriter.box("edts", BoxWriter.box("elst", elst.bytes))
  }

  /// `mdia`/`mdhd`'s timescale.
  private static func mediaTimescale(_ bytes: [UInt8], trak children: [ISOBox]) throws -> UInt32 {
    let mdia = try ISOBox.single("mdia", in: children, context: "trak")
    let mdhd = try ISOBox.single(
      "mdhd", in: try ISOBox.children(of: bytes, in: mdia.payloadRange, context: "mdia"), context: "mdia")
    guard mdhd.payload + 4 <= mdhd.end else { throw MediaFormatError.malformedBox("mdhd is \(mdhd.size) bytes") }
    // Version and flags, then two times of 32 or 64 bits, then the timescale.
    let offset = mdhd.payload + 4 + (bytes[mdhd.payload] == 1 ? 16 : 8)
    guard offset + 4 <= mdhd.end else { throw MediaFormatError.malformedBox("mdhd is \(mdhd.size) bytes") }
    let timescale = BigEndian.u32(bytes, offset)
    guard timescale > 0 else { throw MediaFormatError.malformedBox("mdhd timescale is 0") }
    return timescale
  }
}
