import HLSPackTestSupport

/// A small MPEG-TS reader written for the tests from ISO 13818-1, independent
/// of the muxer: packets, PAT/PMT, continuity counters and video PES payloads.
struct TransportStream {
  struct Packet {
    var pid: Int
    var payloadStart: Bool
    var continuityCounter: Int
    var hasPayload: Bool
    var payload: ArraySlice<UInt8>
    /// The program clock reference in the adaptation field, in 27 MHz ticks.
    var pcr: Int64?
  }

  struct PESUnit {
    var pts: Int64?
    var data: [UInt8]
  }

  let packets: [Packet]

  init(_ bytes: [UInt8]) throws {
    guard bytes.count % 188 == 0, !bytes.isEmpty else {
      throw FixtureError("\(bytes.count) bytes is not a whole number of TS packets")
    }
    var packets: [Packet] = []
    var offset = 0
    while offset < bytes.count {
      guard bytes[offset] == 0x47 else { throw FixtureError("no sync byte at offset \(offset)") }
      let pid = Int(bytes[offset + 1] & 0x1F) << 8 | Int(bytes[offset + 2])
      let control = (bytes[offset + 3] >> 4) & 0x3
      var start = offset + 4
      if control & 0x2 != 0 { start += 1 + Int(bytes[offset + 4]) }
      let hasPayload = control & 0x1 != 0
      var pcr: Int64?
      if control & 0x2 != 0, bytes[offset + 4] >= 7, bytes[offset + 5] & 0x10 != 0 {
        let f = bytes[(offset + 6)..<(offset + 12)].map(Int64.init)
        let base = f[0] << 25 | f[1] << 17 | f[2] << 9 | f[3] << 1 | f[4] >> 7
        pcr = base * 300 + ((f[4] & 1) << 8 | f[5])
      }
      packets.append(
        Packet(
          pid: pid, payloadStart: bytes[offset + 1] & 0x40 != 0, continuityCounter: Int(bytes[offset + 3] & 0x0F),
          hasPayload: hasPayload, payload: hasPayload && start < offset + 188 ? bytes[start..<(offset + 188)] : [],
          pcr: pcr))
      offset += 188
    }
    self.packets = packets
  }

  /// PID of the program map table, from the PAT.
  var pmtPID: Int? {
    guard let pat = packets.first(where: { $0.pid == 0 && $0.payloadStart }) else { return nil }
    let p = Array(pat.payload)
    let section = 1 + Int(p[0])
    // First program entry after the 8-byte section header.
    let entry = section + 8
    return Int(p[entry + 2] & 0x1F) << 8 | Int(p[entry + 3])
  }

  /// (stream_type, PID) pairs from the first PMT.
  var elementaryStreams: [(type: UInt8, pid: Int)] { programMaps.first ?? [] }

  /// (stream_type, PID) pairs of every PMT in the stream, in order (the muxer repeats the PMT before IDRs).
  var programMaps: [[(type: UInt8, pid: Int)]] {
    guard let pmtPID else { return [] }
    return packets.filter { $0.pid == pmtPID && $0.payloadStart }.map { Self.streams(inPMT: Array($0.payload)) }
  }

  private static func streams(inPMT p: [UInt8]) -> [(type: UInt8, pid: Int)] {
    let s = 1 + Int(p[0])
    let sectionLength = Int(p[s + 1] & 0x0F) << 8 | Int(p[s + 2])
    let programInfoLength = Int(p[s + 10] & 0x0F) << 8 | Int(p[s + 11])
    var i = s + 12 + programInfoLength
    let end = s + 3 + sectionLength - 4
    var streams: [(UInt8, Int)] = []
    while i + 5 <= end {
      let pid = Int(p[i + 1] & 0x1F) << 8 | Int(p[i + 2])
      streams.append((p[i], pid))
      i += 5 + (Int(p[i + 3] & 0x0F) << 8 | Int(p[i + 4]))
    }
    return streams
  }

  /// The H.264 stream, clear (0x1B) or SAMPLE-AES (0xDB).
  var videoPID: Int? { elementaryStreams.first { $0.type == 0x1B || $0.type == 0xDB }?.pid }

  /// Every PES unit of a PID, reassembled from its packets.
  func pesUnits(pid: Int) -> [PESUnit] {
    var units: [[UInt8]] = []
    for packet in packets where packet.pid == pid && packet.hasPayload {
      if packet.payloadStart { units.append([]) }
      if !units.isEmpty { units[units.count - 1].append(contentsOf: packet.payload) }
    }
    return units.compactMap { pes in
      guard pes.count > 9, pes[0] == 0, pes[1] == 0, pes[2] == 1 else { return nil }
      let headerLength = Int(pes[8])
      var pts: Int64?
      if pes[7] & 0x80 != 0 { pts = Self.timestamp(pes, at: 9) }
      return PESUnit(pts: pts, data: Array(pes[(9 + headerLength)...]))
    }
  }

  /// For each PES of a PID, its PES_packet_length field and the bytes that
  /// follow that field up to the next PES of the PID (or the end of the data).
  func pesLengths(pid: Int) -> [(declared: Int, actual: Int)] {
    var units: [[UInt8]] = []
    for packet in packets where packet.pid == pid && packet.hasPayload {
      if packet.payloadStart { units.append([]) }
      if !units.isEmpty { units[units.count - 1].append(contentsOf: packet.payload) }
    }
    return units.filter { $0.count > 6 }.map { (Int($0[4]) << 8 | Int($0[5]), $0.count - 6) }
  }

  /// For each PES of a PID, how long before its decode time (DTS, else PTS)
  /// its last byte arrives, in seconds: the clock at a packet is interpolated
  /// between the PCRs around it (extrapolated from the nearest two at the ends).
  func decodeLeads(pid: Int) -> [Double] {
    let clock = packets.enumerated().compactMap { i, p in p.pcr.map { (index: i, seconds: Double($0) / 27_000_000) } }
    guard clock.count >= 2 else { return [] }
    func arrival(_ index: Int) -> Double {
      let after = clock.firstIndex { $0.index > index } ?? clock.count - 1
      let (a, b) = (clock[max(after - 1, 0)], clock[max(after, 1)])
      return a.seconds + Double(index - a.index) * (b.seconds - a.seconds) / Double(b.index - a.index)
    }
    var leads: [Double] = []
    var open: (decode: Double, last: Int)?
    for (i, packet) in packets.enumerated() where packet.pid == pid && packet.hasPayload {
      if packet.payloadStart {
        if let open { leads.append(open.decode - arrival(open.last)) }
        let h = Array(packet.payload.prefix(19))
        guard h.count == 19, h[0] == 0, h[1] == 0, h[2] == 1, h[7] & 0x80 != 0 else {
          open = nil
          continue
        }
        open = (Double(Self.timestamp(h, at: h[7] & 0x40 != 0 ? 14 : 9)) / 90_000, i)
      } else if open != nil {
        open?.last = i
      }
    }
    if let open { leads.append(open.decode - arrival(open.last)) }
    return leads
  }

  /// The 33-bit PTS or DTS in the five bytes of a PES header at `at` (90 kHz).
  static func timestamp(_ h: [UInt8], at: Int) -> Int64 {
    Int64(h[at] >> 1 & 0x07) << 30 | Int64(h[at + 1]) << 22 | Int64(h[at + 2] >> 1) << 15 | Int64(h[at + 3]) << 7
      | Int64(h[at + 4] >> 1)
  }

  /// NAL unit types of an Annex B access unit, in order.
  static func nalTypes(_ data: [UInt8]) -> [UInt8] {
    var types: [UInt8] = []
    var i = 0
    while i + 3 < data.count {
      if data[i] == 0, data[i + 1] == 0, data[i + 2] == 1 {
        types.append(data[i + 3] & 0x1F)
        i += 3
      } else {
        i += 1
      }
    }
    return types
  }
}
