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

  static func hex(_ b: UInt8) -> String { Hex.encode([b]) }
}

extension CodecString {
  /// `hvc1.<space><profile>.<compat>.<tier><level>.<constraints>` (ISO 14496-15
  /// Annex E) from the first HEVC SPS (NAL type 33) in an Annex B byte stream:
  /// compatibility flags bit-reversed in hex, constraint bytes with trailing
  /// zero bytes dropped.
  public static func hvc1(annexB bytes: [UInt8]) -> String? {
    for nal in AnnexB.nalUnits(in: bytes) where nal.count >= 2 && (nal[nal.startIndex] >> 1) & 0x3F == 33 {
      let rbsp = AnnexB.removingEmulationPrevention(nal)
      guard rbsp.count >= 15 else { return nil }
      // [0,2) NAL header; [2] VPS id, max sub-layers, nesting; then profile_tier_level.
      let space = Int(rbsp[3] >> 6)
      let tier = rbsp[3] & 0x20 != 0 ? "H" : "L"
      let profile = Int(rbsp[3] & 0x1F)
      let compatibility = UInt32(rbsp[4]) << 24 | UInt32(rbsp[5]) << 16 | UInt32(rbsp[6]) << 8 | UInt32(rbsp[7])
      var constraints = Array(rbsp[8..<14])
      while constraints.last == 0 { constraints.removeLast() }
      let level = Int(rbsp[14])
      let spaces = ["", "A", "B", "C"]
      var parts = [
        "hvc1", spaces[space] + String(profile), String(compatibility.bitReversed, radix: 16, uppercase: true),
        tier + String(level),
      ]
      parts += constraints.map { String($0, radix: 16, uppercase: true) }
      return parts.joined(separator: ".")
    }
    return nil
  }
}

extension UInt32 {
  var bitReversed: UInt32 {
    var value = self
    var result: UInt32 = 0
    for _ in 0..<32 {
      result = result << 1 | value & 1
      value >>= 1
    }
    return result
  }
}

extension CodecString {
  /// The codec string from what a video stream carries: Annex B parameter sets
  /// (in-band or in extradata), or an `avcC`/`hvcC` decoder configuration record.
  public static func video(hevc: Bool, parameterSets: [UInt8], extradata: [UInt8]) -> String? {
    if extradata.first == 1 {
      return hevc ? hvc1(configurationRecord: extradata) : avc1(configurationRecord: extradata)
    }
    let bytes = parameterSets + extradata
    return hevc ? hvc1(annexB: bytes) : avc1(annexB: bytes)
  }

  /// `avcC`: version, AVCProfileIndication, profile_compatibility, AVCLevelIndication, …
  public static func avc1(configurationRecord r: [UInt8]) -> String? {
    guard r.count >= 4, r[0] == 1 else { return nil }
    return "avc1." + hex(r[1]) + hex(r[2]) + hex(r[3])
  }

  /// `hvcC`: version, then the same profile_tier_level fields as the SPS.
  public static func hvc1(configurationRecord r: [UInt8]) -> String? {
    guard r.count >= 13, r[0] == 1 else { return nil }
    // Rebuild a minimal SPS prefix (header, one byte, PTL) and reuse its parser.
    let sps: [UInt8] = [0x42, 0x01, 0x01] + r[1...12]
    return hvc1(annexB: [0, 0, 0, 1] + sps)
  }
}

extension CodecString {
  /// `av01.P.LLT.DD` from the first sequence header OBU among `obus` (an
  /// encoder's extradata, an `av1C`'s configOBUs, a sample).
  public static func av01(obus: [UInt8]) -> String? {
    AV1OBUs.sequenceHeader(in: obus)?.codecString
  }
}
