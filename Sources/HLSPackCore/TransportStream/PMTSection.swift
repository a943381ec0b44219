/// A TS_program_map_section (ISO 13818-1 §2.4.4.8), read from and written to
/// its bytes (table_id through CRC_32). Reserved bits are written as 1s, as
/// every muxer does; the CRC_32 is always recomputed.
public struct PMTSection: Equatable, Sendable {
  public struct Descriptor: Equatable, Sendable {
    public var tag: UInt8
    /// The descriptor's payload, without tag and length (at most 255 bytes).
    public var data: [UInt8]

    public init(tag: UInt8, data: [UInt8]) {
      self.tag = tag
      self.data = data
    }
  }

  public struct Stream: Equatable, Sendable {
    public var streamType: UInt8
    public var pid: UInt16
    /// The ES_info descriptor loop, in order.
    public var descriptors: [Descriptor]

    public init(streamType: UInt8, pid: UInt16, descriptors: [Descriptor] = []) {
      self.streamType = streamType
      self.pid = pid
      self.descriptors = descriptors
    }
  }

  public static let tableID: UInt8 = 0x02

  public var programNumber: UInt16
  /// version_number, 0–31. It must change whenever the content does (ISO/IEC 13818-1 §2.4.4.9).
  public var version: UInt8
  public var currentNext: Bool
  public var sectionNumber: UInt8
  public var lastSectionNumber: UInt8
  public var pcrPID: UInt16
  /// The program_info descriptor loop.
  public var programDescriptors: [Descriptor]
  public var streams: [Stream]

  public init(
    programNumber: UInt16, version: UInt8 = 0, currentNext: Bool = true, sectionNumber: UInt8 = 0,
    lastSectionNumber: UInt8 = 0, pcrPID: UInt16, programDescriptors: [Descriptor] = [], streams: [Stream]
  ) {
    self.programNumber = programNumber
    self.version = version
    self.currentNext = currentNext
    self.sectionNumber = sectionNumber
    self.lastSectionNumber = lastSectionNumber
    self.pcrPID = pcrPID
    self.programDescriptors = programDescriptors
    self.streams = streams
  }

  /// Reads a section that starts at `bytes`' first byte; bytes after the
  /// section (stuffing) are ignored. The CRC_32 must verify.
  public init(parsing bytes: some Collection<UInt8>) throws {
    let b = Array(bytes)
    let total = try Self.sectionSize(b)
    guard total >= 3 + 9 + 4 else {
      throw TransportStreamError.malformedSection("PMT section_length \(total - 3) is under 13")
    }
    guard CRC32MPEG2.checksum(b[0..<total]) == 0 else { throw TransportStreamError.crcMismatch(tableID: b[0]) }
    programNumber = UInt16(b[3]) << 8 | UInt16(b[4])
    version = b[5] >> 1 & 0x1F
    currentNext = b[5] & 1 == 1
    sectionNumber = b[6]
    lastSectionNumber = b[7]
    pcrPID = UInt16(b[8] & 0x1F) << 8 | UInt16(b[9])
    let end = total - 4
    var pos = 10
    programDescriptors = try Self.readDescriptors(b, at: &pos, end: end)
    streams = []
    while pos < end {
      guard end - pos >= 5 else {
        throw TransportStreamError.malformedSection("ES loop entry cut short at byte \(pos)")
      }
      let type = b[pos]
      let pid = UInt16(b[pos + 1] & 0x1F) << 8 | UInt16(b[pos + 2])
      pos += 3
      let descriptors = try Self.readDescriptors(b, at: &pos, end: end)
      streams.append(Stream(streamType: type, pid: pid, descriptors: descriptors))
    }
  }

  /// The bytes of a PMT section that starts `bytes` (3 + section_length),
  /// after checking table_id and that the section lies within `bytes`.
  static func sectionSize(_ b: [UInt8]) throws -> Int {
    guard b.count >= 3 else {
      throw TransportStreamError.malformedSection("\(b.count) bytes, a section header needs 3")
    }
    guard b[0] == tableID else {
      throw TransportStreamError.malformedSection("table_id 0x\(String(b[0], radix: 16)) is not a PMT (0x02)")
    }
    guard b[1] & 0x80 != 0 else { throw TransportStreamError.malformedSection("section_syntax_indicator is 0") }
    let total = 3 + (Int(b[1] & 0x0F) << 8 | Int(b[2]))
    guard total <= b.count else {
      throw TransportStreamError.malformedSection("section_length \(total - 3) runs past the \(b.count) bytes given")
    }
    return total
  }

  /// Reads a 12-bit loop length at `pos`, then the descriptors of that loop.
  private static func readDescriptors(_ b: [UInt8], at pos: inout Int, end: Int) throws -> [Descriptor] {
    guard end - pos >= 2 else {
      throw TransportStreamError.malformedSection("descriptor loop length cut short at byte \(pos)")
    }
    let length = Int(b[pos] & 0x0F) << 8 | Int(b[pos + 1])
    pos += 2
    let loopEnd = pos + length
    guard loopEnd <= end else {
      throw TransportStreamError.malformedSection("descriptor loop at byte \(pos) runs past the section")
    }
    var descriptors: [Descriptor] = []
    while pos < loopEnd {
      guard loopEnd - pos >= 2 else {
        throw TransportStreamError.malformedSection("descriptor header cut short at byte \(pos)")
      }
      let size = Int(b[pos + 1])
      guard pos + 2 + size <= loopEnd else {
        throw TransportStreamError.malformedSection("descriptor at byte \(pos) runs past its loop")
      }
      descriptors.append(Descriptor(tag: b[pos], data: Array(b[pos + 2..<pos + 2 + size])))
      pos += 2 + size
    }
    return descriptors
  }

  /// The section's bytes, table_id through a freshly computed CRC_32.
  public func serialized() throws -> [UInt8] {
    guard version <= 31 else { throw TransportStreamError.invalidField("version_number \(version) is over 31") }
    guard pcrPID <= 0x1FFF else { throw TransportStreamError.invalidField("PCR_PID \(pcrPID) is over 0x1FFF") }
    var out: [UInt8] = [Self.tableID, 0, 0]
    out += [UInt8(programNumber >> 8), UInt8(programNumber & 0xFF)]
    out.append(0xC0 | version << 1 | (currentNext ? 1 : 0))
    out += [sectionNumber, lastSectionNumber]
    out += [0xE0 | UInt8(pcrPID >> 8), UInt8(pcrPID & 0xFF)]
    try Self.writeDescriptors(programDescriptors, to: &out, what: "program_info")
    for stream in streams {
      guard stream.pid <= 0x1FFF else {
        throw TransportStreamError.invalidField("elementary_PID \(stream.pid) is over 0x1FFF")
      }
      out += [stream.streamType, 0xE0 | UInt8(stream.pid >> 8), UInt8(stream.pid & 0xFF)]
      try Self.writeDescriptors(stream.descriptors, to: &out, what: "ES_info of PID \(stream.pid)")
    }
    // section_length counts what follows it, CRC_32 included; at most 1021.
    let length = out.count - 3 + 4
    guard length <= 1021 else { throw TransportStreamError.invalidField("section_length \(length) is over 1021") }
    out[1] = 0xB0 | UInt8(length >> 8)
    out[2] = UInt8(length & 0xFF)
    let crc = CRC32MPEG2.checksum(out)
    out += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    return out
  }

  private static func writeDescriptors(_ descriptors: [Descriptor], to out: inout [UInt8], what: String) throws {
    let lengthAt = out.count
    out += [0xF0, 0]
    for d in descriptors {
      guard d.data.count <= 255 else {
        throw TransportStreamError.invalidField(
          "descriptor 0x\(String(d.tag, radix: 16)) in \(what) has \(d.data.count) bytes, over 255")
      }
      out += [d.tag, UInt8(d.data.count)]
      out += d.data
    }
    // The two top bits of a 12-bit loop length are 00 (ISO 13818-1), so 1023 at most.
    let length = out.count - lengthAt - 2
    guard length <= 0x3FF else {
      throw TransportStreamError.invalidField("\(what) loop of \(length) bytes is over 1023")
    }
    out[lengthAt] = 0xF0 | UInt8(length >> 8)
    out[lengthAt + 1] = UInt8(length & 0xFF)
  }
}
