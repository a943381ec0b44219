/// Emulation prevention of H.264 and H.265 NAL units (ITU-T H.264 §7.4.1,
/// H.265 §7.4.2), for the NAL units tests write by hand and read back.
public enum EmulationPrevention {
  /// 00 00 0x (x ≤ 3) becomes 00 00 03 0x.
  public static func inserted(_ rbsp: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var zeros = 0
    for byte in rbsp {
      if zeros >= 2, byte <= 3 {
        out.append(3)
        zeros = 0
      }
      out.append(byte)
      zeros = byte == 0 ? zeros + 1 : 0
    }
    return out
  }

  /// The 03 after every 00 00 removed.
  public static func removed(_ nal: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var zeros = 0
    for byte in nal {
      if zeros >= 2, byte == 3 {
        zeros = 0
        continue
      }
      zeros = byte == 0 ? zeros + 1 : 0
      out.append(byte)
    }
    return out
  }
}
