/// Reads the program_association_section (ISO 13818-1 §2.4.4.3) just far
/// enough to find the PMT PIDs.
package enum PATSection {
  package static let tableID: UInt8 = 0x00

  /// The program_map_PIDs of a PAT section that starts `section`'s first
  /// byte (the network PID of program 0 is skipped). The CRC_32 must verify.
  package static func programMapPIDs(_ section: [UInt8]) throws -> [UInt16] {
    guard section.count >= 3, section[0] == tableID else {
      throw TransportStreamError.malformedSection("PID 0 carries a section that is not a PAT")
    }
    let total = 3 + (Int(section[1] & 0x0F) << 8 | Int(section[2]))
    // 5 bytes after section_length, the program loop, 4 bytes of CRC_32.
    guard total >= 12, total <= section.count, (total - 12) % 4 == 0 else {
      throw TransportStreamError.malformedSection("PAT section_length \(total - 3) does not fit")
    }
    guard CRC32MPEG2.checksum(section[0..<total]) == 0 else { throw TransportStreamError.crcMismatch(tableID: tableID) }
    var pids: [UInt16] = []
    for entry in stride(from: 8, to: total - 4, by: 4) {
      let program = UInt16(section[entry]) << 8 | UInt16(section[entry + 1])
      if program != 0 { pids.append(UInt16(section[entry + 2] & 0x1F) << 8 | UInt16(section[entry + 3])) }
    }
    return pids
  }
}
