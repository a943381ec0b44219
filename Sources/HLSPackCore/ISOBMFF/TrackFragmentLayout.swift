/// Where the samples of one `traf` lie (ISO/IEC 14496-12 §8.8.7, §8.8.8):
/// sizes from each `trun`, else `tfhd`'s default, else `trex`'s; data from
/// each run's data_offset, relative to the moof (default-base-is-moof), or
/// right after the previous run.
package struct TrackFragmentLayout {
  package var trackID: UInt32
  package var traf: ISOBox
  /// Each sample's bytes, as offsets into the segment.
  package var samples: [Range<Int>]
  /// Offsets of every trun's data_offset field in the segment.
  package var dataOffsetFields: [Int]
  /// Each sample's duration and flags from its trun, else tfhd's default;
  /// nil when neither has one (the trex default applies, §8.8.3).
  package var durations: [UInt32?] = []
  package var sampleFlags: [UInt32?] = []

  /// `dataMayBeCut`: `bytes` may end before the samples do (an I-frame
  /// range cuts the mdat), so samples may lie past its end.
  package init(
    _ bytes: [UInt8], moof: ISOBox, traf: ISOBox, dataMayBeCut: Bool = false, trexDefaultSize: (UInt32) -> UInt32?
  ) throws {
    self.traf = traf
    let children = try ISOBox.children(of: bytes, in: traf.payloadRange, context: "traf")
    let tfhd = try ISOBox.single("tfhd", in: children, context: "traf")
    guard tfhd.end - tfhd.payload >= 8 else { throw MediaFormatError.malformedBox("tfhd is \(tfhd.size) bytes") }
    let flags = BigEndian.u32(bytes, tfhd.payload) & 0xFF_FFFF
    trackID = BigEndian.u32(bytes, tfhd.payload + 4)
    guard flags & 0x1 == 0 else {
      throw MediaFormatError.unsupportedBox(
        "track \(trackID): tfhd base_data_offset (the moof would move the data it points at)")
    }
    guard flags & 0x2_0000 != 0 else {
      throw MediaFormatError.unsupportedBox("track \(trackID): tfhd without default-base-is-moof")
    }
    var i = tfhd.payload + 8
    if flags & 0x2 != 0 { i += 4 }  // sample_description_index
    var defaultDuration: UInt32?
    if flags & 0x8 != 0, i + 4 <= tfhd.end {
      defaultDuration = BigEndian.u32(bytes, i)
      i += 4
    }
    var defaultSize = trexDefaultSize(trackID)
    if flags & 0x10 != 0 {
      guard i + 4 <= tfhd.end else {
        throw MediaFormatError.malformedBox("track \(trackID): tfhd is \(tfhd.size) bytes")
      }
      defaultSize = BigEndian.u32(bytes, i)
      i += 4
    }
    let defaultFlags = flags & 0x20 != 0 && i + 4 <= tfhd.end ? BigEndian.u32(bytes, i) : nil

    samples = []
    dataOffsetFields = []
    var position: Int?
    for trun in children where trun.type == "trun" {
      position = try readRun(
        bytes, trun: trun, moof: moof, after: position, defaults: (defaultDuration, defaultSize, defaultFlags),
        dataMayBeCut: dataMayBeCut)
    }
    guard !dataOffsetFields.isEmpty else { throw MediaFormatError.malformedBox("track \(trackID): traf has no trun") }
  }

  /// One trun's samples (§8.8.8), appended; returns where its data ends.
  /// `after`: where the previous run's data ended, for a run without data_offset.
  private mutating func readRun(
    _ bytes: [UInt8], trun: ISOBox, moof: ISOBox, after position: Int?,
    defaults: (duration: UInt32?, size: UInt32?, flags: UInt32?), dataMayBeCut: Bool
  ) throws -> Int {
    let (defaultDuration, defaultSize, defaultFlags) = defaults
    var position = position
    guard trun.end - trun.payload >= 8 else {
      throw MediaFormatError.malformedBox("track \(trackID): trun is \(trun.size) bytes")
    }
    let runFlags = BigEndian.u32(bytes, trun.payload) & 0xFF_FFFF
    let count = Int(BigEndian.u32(bytes, trun.payload + 4))
    var j = trun.payload + 8
    if runFlags & 0x1 != 0 {
      guard j + 4 <= trun.end else {
        throw MediaFormatError.malformedBox("track \(trackID): trun is \(trun.size) bytes")
      }
      dataOffsetFields.append(j)
      position = moof.start + Int(Int32(bitPattern: BigEndian.u32(bytes, j)))
      j += 4
    }
    guard var at = position else {
      throw MediaFormatError.unsupportedBox("track \(trackID): the first trun has no data_offset")
    }
    var firstFlags: UInt32?
    if runFlags & 0x4 != 0, j + 4 <= trun.end {
      firstFlags = BigEndian.u32(bytes, j)
      j += 4
    }
    let perSample = [0x100, 0x200, 0x400, 0x800].filter { runFlags & $0 != 0 }.count * 4
    guard count <= 1 << 24, perSample == 0 || count <= (trun.end - j) / perSample else {
      throw MediaFormatError.malformedBox("track \(trackID): trun of \(trun.size) bytes cannot hold \(count) samples")
    }
    for index in 0..<count {
      var duration = defaultDuration
      if runFlags & 0x100 != 0 {
        duration = BigEndian.u32(bytes, j)
        j += 4
      }
      var size = defaultSize
      if runFlags & 0x200 != 0 {
        size = BigEndian.u32(bytes, j)
        j += 4
      }
      var thisFlags = index == 0 ? firstFlags ?? defaultFlags : defaultFlags
      if runFlags & 0x400 != 0 {
        if index > 0 || firstFlags == nil { thisFlags = BigEndian.u32(bytes, j) }
        j += 4
      }
      if runFlags & 0x800 != 0 { j += 4 }
      durations.append(duration)
      sampleFlags.append(thisFlags)
      guard let size else {
        throw MediaFormatError.malformedBox("track \(trackID): no sample size in trun, tfhd or trex")
      }
      guard at >= 0, dataMayBeCut || Int(size) <= bytes.count - at else {
        throw MediaFormatError.malformedBox(
          "track \(trackID): sample \(samples.count) at offset \(at) runs past the end of the segment")
      }
      samples.append(at..<at + Int(size))
      at += Int(size)
    }
    return at
  }
}
