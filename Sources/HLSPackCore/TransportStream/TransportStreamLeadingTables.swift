/// Finds where the program tables at the start of an MPEG-TS segment end.
/// Without EXT-X-MAP they are the segment's Media Initialization Section,
/// which an I-frame byte range must not include (RFC 8216bis §4.4.3.6): the
/// client reads them from the start of the resource, as Apple's
/// mediastreamsegmenter and Shaka Packager lay their ranges out.
public enum TransportStreamLeadingTables {
  private static let packetSize = 188
  private static let syncByte: UInt8 = 0x47
  private static let sdtPID: UInt16 = 0x11

  /// The byte length of the run of table packets (PAT, the PMTs it names,
  /// SDT) that `packets` (whole packets) starts with; 0 when it starts with
  /// anything else.
  public static func length(_ packets: [UInt8]) -> Int {
    var programMapPIDs: Set<UInt16> = []
    var offset = 0
    while offset + packetSize <= packets.count, packets[offset] == syncByte {
      let pid = TransportStreamPacketHeader.pid(packets, at: offset)
      if pid == 0 {
        let pids = section(packets, at: offset).flatMap { try? PATSection.programMapPIDs($0) } ?? []
        programMapPIDs.formUnion(pids)
      } else if pid != sdtPID, !programMapPIDs.contains(pid) {
        break
      }
      offset += packetSize
    }
    return offset
  }

  /// The section that starts in the packet at `offset`, from its table_id to
  /// the packet's end; nil when the packet starts none.
  private static func section(_ packets: [UInt8], at offset: Int) -> [UInt8]? {
    let end = offset + packetSize
    let control = packets[offset + 3] >> 4 & 0x03
    guard packets[offset + 1] & 0x40 != 0, control & 0x01 != 0 else { return nil }
    var payload = offset + 4
    if control & 0x02 != 0 { payload += 1 + Int(packets[payload]) }
    guard payload < end else { return nil }
    let start = payload + 1 + Int(packets[payload])
    return start < end ? Array(packets[start..<end]) : nil
  }
}
