import Testing

@testable import HLSPackCore

/// 188-byte packets built by hand: a 4-byte header, an optional adaptation
/// field, then a payload padded with 0xFF (PSI) or 0x00 (PES).
private func packet(
  pid: UInt16, counter: UInt8, start: Bool, adaptation: [UInt8]? = nil, payload: [UInt8], fill: UInt8 = 0xFF
)
  -> [UInt8]
{
  var p: [UInt8] = [0x47, (start ? 0x40 : 0) | UInt8(pid >> 8), UInt8(pid & 0xFF)]
  p.append((adaptation == nil ? 0x10 : 0x30) | counter & 0x0F)
  if let adaptation { p += [UInt8(adaptation.count)] + adaptation }
  p += payload
  return p + [UInt8](repeating: fill, count: 188 - p.count)
}

/// A section with its CRC_32 appended.
private func withCRC(_ body: [UInt8]) -> [UInt8] {
  let crc = CRC32MPEG2.checksum(body)
  return body + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
}

/// PAT: program 1 → PMT PID 0x20.
private let patSection = withCRC([0x00, 0xB0, 0x0D, 0x00, 0x01, 0xC1, 0x00, 0x00, 0x00, 0x01, 0xE0, 0x20])

/// The clear PMT behind the AAC vector of `L4` (Shaka Packager's PMT unit test): stream_type 0x0F
/// on PID 0x50, no descriptors.
private let clearAACSection = withCRC([
  0x02, 0xB0, 0x12, 0x00, 0x01, 0xC1, 0x00, 0x00, 0xE0, 0x50, 0xF0, 0x00, 0x0F, 0xE0, 0x50, 0xF0, 0x00,
])

@Suite struct TransportStreamRewriterTests {
  private func stream(pmtAdaptation: [UInt8]? = nil) -> [UInt8] {
    packet(pid: 0x11, counter: 2, start: true, payload: [0x00, 0x42, 0xF0, 0x00])  // an SDT-ish PSI packet, untouched
      + packet(pid: 0, counter: 3, start: true, payload: [0x00] + patSection)
      + packet(pid: 0x20, counter: 7, start: true, adaptation: pmtAdaptation, payload: [0x00] + clearAACSection)
      + packet(pid: 0x50, counter: 9, start: true, payload: [0x00, 0x00, 0x01, 0xC0, 0x01, 0x02], fill: 0)
      + packet(pid: 0, counter: 4, start: true, payload: [0x00] + patSection)
      + packet(pid: 0x20, counter: 8, start: true, payload: [0x00] + clearAACSection)
  }

  @Test func rewritesEveryPMTPacketToTheL4Bytes() throws {
    let clear = stream()
    var ts = clear
    var rewriter = TransportStreamPMTRewriter(signalling: L4.aacSignalling)
    #expect(try rewriter.rewrite(&ts) == 2)
    #expect(rewriter.pmtPIDs == [0x20])
    #expect(ts.count == clear.count)
    for index in [2, 5] {
      let p = Array(ts[index * 188..<(index + 1) * 188])
      // Header (PID, continuity counter) as before; pointer_field, section, stuffing.
      #expect(Array(p[..<4]) == Array(clear[index * 188..<index * 188 + 4]))
      #expect(p[4] == 0x00)
      #expect(Array(p[5..<5 + L4.aacSection.count]) == L4.aacSection)
      #expect(p[(5 + L4.aacSection.count)...].allSatisfy { $0 == 0xFF })
    }
    for index in [0, 1, 3, 4] {
      #expect(ts[index * 188..<(index + 1) * 188] == clear[index * 188..<(index + 1) * 188], "packet \(index) changed")
    }
  }

  @Test func keepsTheAdaptationFieldAndCounter() throws {
    let adaptation: [UInt8] = [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    var ts = stream(pmtAdaptation: adaptation)
    var rewriter = TransportStreamPMTRewriter(
      signalling: SampleAESSignalling(version: 1, audioSetup: L4.aacSignalling.audioSetup))
    try rewriter.rewrite(&ts)
    let p = Array(ts[2 * 188..<3 * 188])
    #expect(Array(p[..<4]) == [0x47, 0x40, 0x20, 0x37])  // PUSI, PID 0x20, adaptation + payload, counter 7
    #expect(Array(p[4..<12]) == [UInt8(adaptation.count)] + adaptation)
    let section = Array(p[13..<13 + L4.aacSection.count])
    #expect(section[5] == 0xC3)  // version 1 after a clear lead
    #expect(CRC32MPEG2.checksum(section) == 0)
    #expect(try PMTSection(parsing: section).streams.first?.streamType == 0xCF)
  }

  @Test func aSectionThatNoLongerFitsIsRefusedAndNothingChanges() throws {
    // A 150-byte adaptation field leaves 32 bytes after the pointer_field: the
    // clear section (21) fits, the SAMPLE-AES one (43) does not.
    let adaptation = [0x00] + [UInt8](repeating: 0xFF, count: 149)
    let clear = stream(pmtAdaptation: adaptation)
    var ts = clear
    var rewriter = TransportStreamPMTRewriter(signalling: L4.aacSignalling)
    #expect(throws: TransportStreamError.sectionDoesNotFit(pid: 0x20, offset: 2 * 188, needed: 43, available: 32)) {
      try rewriter.rewrite(&ts)
    }
    #expect(ts == clear)
  }

  @Test func pmtPIDsCarryOverBetweenBuffers() throws {
    let all = stream()
    var rewriter = TransportStreamPMTRewriter(signalling: L4.aacSignalling)
    var first = Array(all[..<(2 * 188)])
    var second = Array(all[(5 * 188)...])
    #expect(try rewriter.rewrite(&first) == 0)
    #expect(try rewriter.rewrite(&second) == 1)
    #expect(Array(second[5..<5 + L4.aacSection.count]) == L4.aacSection)
    // Without a PAT the PMT PID is unknown unless given.
    var alone = Array(all[(5 * 188)...])
    var fresh = TransportStreamPMTRewriter(signalling: L4.aacSignalling)
    #expect(try fresh.rewrite(&alone) == 0)
    var seeded = TransportStreamPMTRewriter(signalling: L4.aacSignalling, pmtPIDs: [0x20])
    #expect(try seeded.rewrite(&alone) == 1)
  }

  @Test func malformedBuffersAreRefused() throws {
    var rewriter = TransportStreamPMTRewriter(signalling: L4.aacSignalling)
    var short = Array(stream().dropLast())
    #expect(throws: TransportStreamError.notWholePackets(byteCount: 6 * 188 - 1)) { try rewriter.rewrite(&short) }
    var lostSync = stream()
    lostSync[188] = 0x00
    #expect(throws: TransportStreamError.self) { try rewriter.rewrite(&lostSync) }
    // A PMT packet without payload_unit_start_indicator continues a section.
    var continued = stream()
    continued[2 * 188 + 1] &= ~0x40
    #expect(throws: TransportStreamError.sectionSpansPackets(pid: 0x20, offset: 2 * 188)) {
      try rewriter.rewrite(&continued)
    }
    var badCRC = stream()
    badCRC[2 * 188 + 10] ^= 0x01
    #expect(throws: TransportStreamError.crcMismatch(tableID: 0x02)) { try rewriter.rewrite(&badCRC) }
  }
}
