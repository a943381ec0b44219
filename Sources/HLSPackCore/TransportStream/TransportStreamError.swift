/// Why a transport stream, PSI section or SAMPLE-AES signalling request was refused.
public enum TransportStreamError: Error, CustomStringConvertible, Equatable, Sendable {
  /// A PSI section that cannot be read (lengths, table id, descriptor loop).
  case malformedSection(String)
  /// A section whose CRC_32 does not verify.
  case crcMismatch(tableID: UInt8)
  /// A field that cannot be written (version > 31, a descriptor over 255 bytes, …).
  case invalidField(String)
  /// A buffer that is not whole 188-byte packets.
  case notWholePackets(byteCount: Int)
  /// A packet that does not start with 0x47, or whose header is inconsistent.
  case malformedPacket(offset: Int, reason: String)
  /// A PAT or PMT section that does not start and end in one packet.
  case sectionSpansPackets(pid: UInt16, offset: Int)
  /// The rewritten PMT section is larger than the packet it must fit in.
  case sectionDoesNotFit(pid: UInt16, offset: Int, needed: Int, available: Int)
  /// An audio or video stream type that SAMPLE-AES in MPEG-TS cannot signal.
  case unsupportedStreamType(pid: UInt16, streamType: UInt8)
  /// An encrypted audio stream needs its audio setup information (Apple MPEG-2 Stream Encryption §2.3.4).
  case missingAudioSetup(pid: UInt16, streamType: UInt8)
  /// Audio setup information for another codec than the stream's.
  case audioSetupMismatch(pid: UInt16, streamType: UInt8, audioType: String)

  public var description: String {
    switch self {
    case .malformedSection(let reason): "malformed PSI section: \(reason)"
    case .crcMismatch(let table): "CRC_32 of a section with table_id \(hex(table)) does not verify"
    case .invalidField(let reason): "cannot write section: \(reason)"
    case .notWholePackets(let n): "\(n) bytes are not whole 188-byte TS packets"
    case .malformedPacket(let offset, let reason): "TS packet at byte \(offset): \(reason)"
    case .sectionSpansPackets(let pid, let offset):
      "TS packet at byte \(offset): the section on PID \(hex(pid)) does not fit in one packet; not supported"
    case .sectionDoesNotFit(let pid, let offset, let needed, let available):
      "TS packet at byte \(offset): the SAMPLE-AES PMT on PID \(hex(pid)) needs \(needed) bytes, the packet has \(available)"
    case .unsupportedStreamType(let pid, let type):
      "PID \(hex(pid)): stream_type \(hex(type)) cannot be signalled as SAMPLE-AES in MPEG-TS"
    case .missingAudioSetup(let pid, let type):
      "PID \(hex(pid)): encrypted audio (stream_type \(hex(type))) needs audio setup information"
    case .audioSetupMismatch(let pid, let type, let audioType):
      "PID \(hex(pid)): audio setup '\(audioType)' does not fit stream_type \(hex(type))"
    }
  }
}

private func hex(_ value: some BinaryInteger) -> String {
  "0x" + String(value, radix: 16, uppercase: true)
}
