/// RFC 6381 codec strings read from the bytes that were actually written.
public enum CodecString {
  /// `avc1.PPCCLL` from the first SPS (NAL type 7) in an Annex B access unit:
  /// profile_idc, the constraint-flag byte and level_idc, as lower-case hex.
  public static func avc1(annexB bytes: [UInt8]) -> String? {
    for nal in AnnexB.nalUnits(in: bytes) where nal.count >= 4 && nal[nal.startIndex] & 0x1F == 7 {
      let i = nal.startIndex
      return "avc1." + hex(nal[i + 1]) + hex(nal[i + 2]) + hex(nal[i + 3])
    }
    return nil
  }

  /// `mp4a.40.N` where N is the audio object type of an AudioSpecificConfig
  /// (ISO 14496-3: 5 bits, 31 escapes to 32 + the next 6 bits).
  public static func mp4a(audioSpecificConfig asc: [UInt8]) -> String? {
    guard let first = asc.first else { return nil }
    var objectType = Int(first >> 3)
    if objectType == 31 {
      guard asc.count >= 2 else { return nil }
      objectType = 32 + Int((first & 0x07) << 3 | asc[1] >> 5)
    }
    return objectType == 0 ? nil : "mp4a.40.\(objectType)"
  }

  static func hex(_ b: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(b >> 4)], digits[Int(b & 0x0F)]])
  }
}

/// Splits H.264/HEVC Annex B byte streams into NAL units (without start codes).
public enum AnnexB {
  public static func nalUnits(in bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var starts: [(payload: Int, code: Int)] = []
    var i = 0
    while i + 2 < bytes.count {
      if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
        let code = (i > 0 && bytes[i - 1] == 0) ? i - 1 : i
        starts.append((i + 3, code))
        i += 3
      } else {
        i += 1
      }
    }
    var units: [ArraySlice<UInt8>] = []
    for (n, start) in starts.enumerated() {
      var end = n + 1 < starts.count ? starts[n + 1].code : bytes.count
      // Trailing zero bytes before the next start code belong to neither NAL.
      while end > start.payload, bytes[end - 1] == 0, n + 1 == starts.count { end -= 1 }
      if end > start.payload { units.append(bytes[start.payload..<end]) }
    }
    return units
  }
}
