/// Moves the fragments of a later part of a joined asset onto the timeline of
/// the parts before it. Each part's mov muxer starts its tracks at decode time
/// 0; an EXT-X-DISCONTINUITY allows that, but a client that reads the fMP4
/// renditions as one stream (FFmpeg's HLS demuxer feeds every fragment to one
/// mov demuxer) drops fragments whose `tfdt` goes back. With every `tfdt`
/// (ISO/IEC 14496-12 §8.8.12) moved by the part's start, each track's
/// decode times run on across parts.
public struct FragmentTimeShift: Sendable {
  /// track_ID → the track's timescale (`mdhd`).
  private let timescales: [UInt32: UInt32]
  /// The part's start on the playlist's timeline, 90 kHz.
  private let ticks: Int64

  /// Reads every track's timescale from the part's init segment (ftyp + moov).
  public init(initSegment bytes: [UInt8], ticks: Int64) throws {
    self.ticks = ticks
    var timescales: [UInt32: UInt32] = [:]
    let moov = try ISOBox.single(
      "moov", in: try ISOBox.children(of: bytes, in: bytes.indices, context: "init segment"), context: "init segment")
    for trak in try ISOBox.children(of: bytes, in: moov.payloadRange, context: "moov") where trak.type == "trak" {
      let children = try ISOBox.children(of: bytes, in: trak.payloadRange, context: "trak")
      let tkhd = try ISOBox.single("tkhd", in: children, context: "trak")
      // Version and flags, two times of 32 or 64 bits, then track_ID.
      let idOffset = tkhd.payload + 4 + (bytes[tkhd.payload] == 1 ? 16 : 8)
      let mdia = try ISOBox.single("mdia", in: children, context: "trak")
      let mdhd = try ISOBox.single(
        "mdhd", in: try ISOBox.children(of: bytes, in: mdia.payloadRange, context: "mdia"), context: "mdia")
      let scaleOffset = mdhd.payload + 4 + (bytes[mdhd.payload] == 1 ? 16 : 8)
      guard idOffset + 4 <= tkhd.end, scaleOffset + 4 <= mdhd.end else {
        throw MediaFormatError.malformedBox("trak: tkhd or mdhd is cut short")
      }
      timescales[BigEndian.u32(bytes, idOffset)] = BigEndian.u32(bytes, scaleOffset)
    }
    self.timescales = timescales
  }

  /// Adds the part's start to the `tfdt` of every track fragment of
  /// `fragment` (moof + mdat), in the track's timescale; in place, sizes unchanged.
  public func shift(_ fragment: inout [UInt8]) throws {
    for moof in try ISOBox.children(of: fragment, in: fragment.indices, context: "fragment") where moof.type == "moof" {
      for traf in try ISOBox.children(of: fragment, in: moof.payloadRange, context: "moof") where traf.type == "traf" {
        let children = try ISOBox.children(of: fragment, in: traf.payloadRange, context: "traf")
        let tfhd = try ISOBox.single("tfhd", in: children, context: "traf")
        let tfdt = try ISOBox.single("tfdt", in: children, context: "traf")
        guard tfhd.payload + 8 <= tfhd.end, tfdt.payload + 8 <= tfdt.end else {
          throw MediaFormatError.malformedBox("traf: tfhd or tfdt is cut short")
        }
        let track = BigEndian.u32(fragment, tfhd.payload + 4)
        guard let timescale = timescales[track] else {
          throw MediaFormatError.malformedBox("traf: track \(track) is not in the init segment")
        }
        let delta = (ticks * Int64(timescale) + MediaClock.ticksPerSecond / 2) / MediaClock.ticksPerSecond
        if fragment[tfdt.payload] == 1 {
          guard tfdt.payload + 12 <= tfdt.end else { throw MediaFormatError.malformedBox("tfdt is cut short") }
          let time = Int64(bitPattern: BigEndian.u64(fragment, tfdt.payload + 4)) + delta
          BigEndian.put64(UInt64(bitPattern: time), into: &fragment, at: tfdt.payload + 4)
        } else {
          let time = Int64(BigEndian.u32(fragment, tfdt.payload + 4)) + delta
          guard let time32 = UInt32(exactly: time) else {
            throw MediaFormatError.malformedBox("tfdt: decode time \(time) is beyond a version 0 tfdt")
          }
          BigEndian.put32(time32, into: &fragment, at: tfdt.payload + 4)
        }
      }
    }
  }
}
