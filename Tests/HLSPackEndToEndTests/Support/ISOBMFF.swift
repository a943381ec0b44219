import HLSPackTestSupport

/// A small ISO-BMFF reader for the tests, written from ISO 14496-12: boxes,
/// nested boxes, and the fragment fields the conformance checks need.
struct Box {
  var type: String
  var payload: ArraySlice<UInt8>

  static func parse(_ bytes: ArraySlice<UInt8>) throws -> [Box] {
    var boxes: [Box] = []
    var offset = bytes.startIndex
    while offset + 8 <= bytes.endIndex {
      var size = Int(readBE32(bytes, offset))
      let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
      var header = 8
      if size == 1 {
        size = Int(readBE64(bytes, offset + 8))
        header = 16
      }
      guard size >= header, offset + size <= bytes.endIndex else { throw FixtureError("bad box \(type) at \(offset)") }
      boxes.append(Box(type: type, payload: bytes[(offset + header)..<(offset + size)]))
      offset += size
    }
    guard offset == bytes.endIndex else { throw FixtureError("trailing bytes after the last box") }
    return boxes
  }

  func children(skipping prefix: Int = 0) throws -> [Box] {
    try Box.parse(payload.dropFirst(prefix))
  }

  /// The first box of `type` anywhere below this one (containers only).
  func find(_ path: [String]) throws -> Box? {
    guard let first = path.first else { return self }
    let containers: Set<String> = [
      "moov", "trak", "edts", "mdia", "minf", "stbl", "moof", "traf", "mvex", "sinf", "schi",
    ]
    guard containers.contains(type) else { return nil }
    for child in try children() where child.type == first {
      if let found = try child.find(Array(path.dropFirst())) { return found }
    }
    return nil
  }

}

/// A trak's edit list (version 0) and the track's timescale.
struct TrackEdit {
  var entryCount: UInt32
  /// The first entry's.
  var segmentDuration: UInt32
  var mediaTime: UInt32
  /// `mdhd`'s.
  var timescale: UInt32
  var seconds: Double { Double(mediaTime) / Double(timescale) }

  /// Nil when the track has no edit list.
  init?(_ trak: Box) throws {
    guard let elst = try trak.find(["edts", "elst"])?.payload else { return nil }
    entryCount = readBE32(elst, elst.startIndex + 4)
    segmentDuration = readBE32(elst, elst.startIndex + 8)
    mediaTime = readBE32(elst, elst.startIndex + 12)
    timescale = try trak.mediaTimescale()
  }
}

extension Box {
  /// A trak's timescale (`mdhd` version 0, as the mov muxer writes it).
  func mediaTimescale() throws -> UInt32 {
    guard let mdhd = try find(["mdia", "mdhd"])?.payload else { throw FixtureError("trak without mdhd") }
    return readBE32(mdhd, mdhd.startIndex + 12)
  }
}

/// One track fragment: its track, base decode time and sample durations.
struct TrackFragment {
  var trackID: UInt32
  var baseDecodeTime: UInt64
  var durations: [UInt32]
  /// Each sample's composition time offset (0 when the trun has none).
  var compositionOffsets: [Int64]
  var firstSampleIsSync: Bool

  init(_ traf: Box) throws {
    let children = try traf.children()
    guard let tfhd = children.first(where: { $0.type == "tfhd" }),
      let tfdt = children.first(where: { $0.type == "tfdt" }),
      let trun = children.first(where: { $0.type == "trun" })
    else { throw FixtureError("traf without tfhd, tfdt or trun") }
    let h = tfhd.payload, s = h.startIndex
    let hflags = readBE32(h, s) & 0xFFFFFF
    trackID = readBE32(h, s + 4)
    var i = s + 8
    if hflags & 0x1 != 0 { i += 8 }
    if hflags & 0x2 != 0 { i += 4 }
    var defaultDuration: UInt32 = 0
    if hflags & 0x8 != 0 {
      defaultDuration = readBE32(h, i)
      i += 4
    }
    if hflags & 0x10 != 0 { i += 4 }
    var defaultFlags: UInt32 = 0
    if hflags & 0x20 != 0 { defaultFlags = readBE32(h, i) }
    let t = tfdt.payload
    baseDecodeTime = t[t.startIndex] == 1 ? readBE64(t, t.startIndex + 4) : UInt64(readBE32(t, t.startIndex + 4))

    let r = trun.payload, rs = r.startIndex
    let rflags = readBE32(r, rs) & 0xFFFFFF
    let count = Int(readBE32(r, rs + 4))
    var j = rs + 8
    if rflags & 0x1 != 0 { j += 4 }
    var firstFlags = defaultFlags
    if rflags & 0x4 != 0 {
      firstFlags = readBE32(r, j)
      j += 4
    }
    var durations: [UInt32] = []
    var offsets: [Int64] = []
    // trun version 1 offsets are signed.
    let signed = r[rs] == 1
    for n in 0..<count {
      if rflags & 0x100 != 0 {
        durations.append(readBE32(r, j))
        j += 4
      } else {
        durations.append(defaultDuration)
      }
      if rflags & 0x200 != 0 { j += 4 }
      if rflags & 0x400 != 0 {
        if n == 0, rflags & 0x4 == 0 { firstFlags = readBE32(r, j) }
        j += 4
      }
      if rflags & 0x800 != 0 {
        let raw = readBE32(r, j)
        offsets.append(signed ? Int64(Int32(bitPattern: raw)) : Int64(raw))
        j += 4
      } else {
        offsets.append(0)
      }
    }
    self.durations = durations
    compositionOffsets = offsets
    // sample_is_non_sync_sample is bit 16 of the sample flags.
    firstSampleIsSync = firstFlags & 0x10000 == 0
  }
}
