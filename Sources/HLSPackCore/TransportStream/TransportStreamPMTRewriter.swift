/// Rewrites, in place, every PMT packet of a transport stream buffer into its
/// SAMPLE-AES form (`SampleAESSignalling`), for a muxer that wrote the clear PMT.
///
/// The PMT PIDs come from the PATs in the buffer (or earlier buffers, or the
/// initialiser), so a PAT must come before the PMT it announces, as it does at
/// the start of every segment. Only the section bytes change: sync byte, PID,
/// continuity counter, adaptation field and pointer_field stay, the section is
/// followed by 0xFF stuffing up to the packet end, and no packet is added or
/// removed. The new section must fit in the same packet.
///
/// The buffer is checked whole before any byte changes, so a refused buffer is
/// left as it was.
public struct TransportStreamPMTRewriter: Sendable {
  public static let packetSize = 188
  private static let syncByte: UInt8 = 0x47

  public var signalling: SampleAESSignalling {
    didSet { cache = nil }
  }
  /// The PMT PIDs announced by every PAT seen so far.
  public private(set) var pmtPIDs: Set<UInt16>

  /// The muxer repeats the same PMT many times per segment; converting it once is enough.
  private struct Converted: Sendable {
    var clear: [UInt8]
    var encrypted: [UInt8]
  }
  private var cache: Converted?

  /// - Parameters:
  ///   - signalling: the stream types, descriptors and version to write.
  ///   - pmtPIDs: PMT PIDs known beforehand (normally learnt from the PAT).
  public init(signalling: SampleAESSignalling, pmtPIDs: Set<UInt16> = []) {
    self.signalling = signalling
    self.pmtPIDs = pmtPIDs
  }

  /// Rewrites the PMT packets of `packets` (whole 188-byte packets).
  /// - Returns: how many PMT packets were rewritten.
  @discardableResult
  public mutating func rewrite(_ packets: inout [UInt8]) throws -> Int {
    try packets.withUnsafeMutableBufferPointer { try rewrite($0) }
  }

  @discardableResult
  public mutating func rewrite(_ packets: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
    guard packets.count % Self.packetSize == 0 else {
      throw TransportStreamError.notWholePackets(byteCount: packets.count)
    }
    var pids = pmtPIDs
    var edits: [(sectionStart: Int, section: [UInt8])] = []
    for offset in stride(from: 0, to: packets.count, by: Self.packetSize) {
      let packet = UnsafeBufferPointer(rebasing: packets[offset..<offset + Self.packetSize])
      guard let (pid, sectionStart) = try Self.sectionStart(packet, offset: offset, psiPIDs: pids) else { continue }
      let rest = Array(packet[sectionStart...])
      guard rest.count >= 3, 3 + (Int(rest[1] & 0x0F) << 8 | Int(rest[2])) <= rest.count else {
        throw TransportStreamError.sectionSpansPackets(pid: pid, offset: offset)
      }
      if pid == 0 {
        pids.formUnion(try PATSection.programMapPIDs(rest))
        continue
      }
      let clearSize = try PMTSection.sectionSize(rest)
      // Overwriting would destroy a second section packed after the PMT.
      guard rest[clearSize...].allSatisfy({ $0 == 0xFF }) else {
        throw TransportStreamError.malformedPacket(
          offset: offset, reason: "another section follows the PMT; not supported")
      }
      let encrypted = try convert(Array(rest[..<clearSize]))
      let available = Self.packetSize - sectionStart
      guard encrypted.count <= available else {
        throw TransportStreamError.sectionDoesNotFit(
          pid: pid, offset: offset, needed: encrypted.count, available: available)
      }
      edits.append((offset + sectionStart, encrypted))
    }
    for edit in edits {
      let end = edit.sectionStart - edit.sectionStart % Self.packetSize + Self.packetSize
      for (i, byte) in edit.section.enumerated() { packets[edit.sectionStart + i] = byte }
      for i in edit.sectionStart + edit.section.count..<end { packets[i] = 0xFF }
    }
    pmtPIDs = pids
    return edits.count
  }

  private mutating func convert(_ clear: [UInt8]) throws -> [UInt8] {
    if let cache, cache.clear == clear { return cache.encrypted }
    let encrypted = try signalling.encryptedSection(clear)
    cache = Converted(clear: clear, encrypted: encrypted)
    return encrypted
  }

  /// For a packet that starts a PAT (PID 0) or PMT section: its PID and the
  /// offset of table_id inside the packet. nil for any other packet, and for a
  /// PSI packet holding only stuffing.
  private static func sectionStart(
    _ p: UnsafeBufferPointer<UInt8>, offset: Int, psiPIDs: Set<UInt16>
  ) throws -> (pid: UInt16, start: Int)? {
    guard p[0] == syncByte else {
      throw TransportStreamError.malformedPacket(offset: offset, reason: "no sync byte 0x47")
    }
    let pid = TransportStreamPacketHeader.pid(p, at: 0)
    guard pid == 0 || psiPIDs.contains(pid) else { return nil }
    let control = p[3] >> 4 & 0x03
    guard control & 0x01 != 0 else { return nil }  // adaptation field only
    var payload = 4
    if control & 0x02 != 0 { payload += 1 + Int(p[4]) }
    guard payload < packetSize else {
      throw TransportStreamError.malformedPacket(
        offset: offset, reason: "adaptation field leaves no room for the payload it announces")
    }
    // Without payload_unit_start_indicator this packet continues a section
    // begun in an earlier one.
    guard p[1] & 0x40 != 0 else { throw TransportStreamError.sectionSpansPackets(pid: pid, offset: offset) }
    let start = payload + 1 + Int(p[payload])
    guard start < packetSize else {
      throw TransportStreamError.malformedPacket(offset: offset, reason: "pointer_field points past the packet")
    }
    return p[start] == 0xFF ? nil : (pid, start)
  }
}
