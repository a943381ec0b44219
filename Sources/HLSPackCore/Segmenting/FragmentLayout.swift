/// Reads where a movie fragment's first sample lies, from its own moof:
/// with default-base-is-moof, the first traf's trun data_offset is relative to
/// the moof, and its first sample size (or tfhd's default) is the length.
public enum FragmentLayout {
  /// The length of the prefix of `fragment` (moof + mdat) that holds the moof
  /// and the first track's first sample; nil when the bytes are not a fragment.
  public static func firstSampleEnd(_ fragment: [UInt8]) -> Int? {
    guard let moof = box("moof", in: fragment, from: 0, to: fragment.count),
      let traf = box("traf", in: fragment, from: moof.payload, to: moof.end),
      let tfhd = box("tfhd", in: fragment, from: traf.payload, to: traf.end),
      let trun = box("trun", in: fragment, from: traf.payload, to: traf.end)
    else { return nil }

    let tfhdFlags = be32(fragment, tfhd.payload) & 0xFFFFFF
    var i = tfhd.payload + 8  // version/flags, track_ID
    if tfhdFlags & 0x1 != 0 { i += 8 }  // base_data_offset
    if tfhdFlags & 0x2 != 0 { i += 4 }  // sample_description_index
    if tfhdFlags & 0x8 != 0 { i += 4 }  // default_sample_duration
    let defaultSize = tfhdFlags & 0x10 != 0 ? Int(be32(fragment, i)) : nil

    let trunFlags = be32(fragment, trun.payload) & 0xFFFFFF
    guard trunFlags & 0x1 != 0 else { return nil }  // data_offset present
    let dataOffset = Int(Int32(bitPattern: be32(fragment, trun.payload + 8)))
    var j = trun.payload + 12
    if trunFlags & 0x4 != 0 { j += 4 }  // first_sample_flags
    if trunFlags & 0x100 != 0 { j += 4 }  // sample_duration
    let size = trunFlags & 0x200 != 0 ? Int(be32(fragment, j)) : defaultSize
    guard let size, dataOffset > 0, moof.start + dataOffset + size <= fragment.count else { return nil }
    return moof.start + dataOffset + size
  }

  private struct Located {
    var start: Int
    var payload: Int
    var end: Int
  }

  private static func box(_ type: String, in bytes: [UInt8], from: Int, to: Int) -> Located? {
    var offset = from
    while offset + 8 <= to {
      let size = Int(be32(bytes, offset))
      guard size >= 8, offset + size <= to else { return nil }
      if bytes[(offset + 4)..<(offset + 8)].elementsEqual(type.utf8) {
        return Located(start: offset, payload: offset + 8, end: offset + size)
      }
      offset += size
    }
    return nil
  }

  private static func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
  }
}
