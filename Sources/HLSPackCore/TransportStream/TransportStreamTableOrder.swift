/// Puts PAT and PMT first where FFmpeg's TS muxer writes its tables (at the
/// start of every segment and before every keyframe): it writes SDT, PAT, PMT,
/// and HLS wants a segment's first two packets to be PAT then PMT
/// (RFC 8216bis §3.1.1) so that a client can start at any segment or I-frame byte
/// range. The three packets are rotated in place, so sizes and offsets stay.
public enum TransportStreamTableOrder {
  private static let packetSize = 188
  private static let sdtPID: UInt16 = 0x11

  /// Rotates every SDT, PAT, PMT run in `packets` (whole packets) to PAT, PMT, SDT.
  public static func putPATFirst(_ packets: inout [UInt8]) {
    packets.withUnsafeMutableBufferPointer { buffer in
      var offset = 0
      while offset + 3 * packetSize <= buffer.count {
        guard TransportStreamPacketHeader.pid(buffer, at: offset) == sdtPID,
          TransportStreamPacketHeader.pid(buffer, at: offset + packetSize) == 0
        else {
          offset += packetSize
          continue
        }
        var sdt = [UInt8](repeating: 0, count: packetSize)
        for i in 0..<packetSize { sdt[i] = buffer[offset + i] }
        for i in 0..<(2 * packetSize) { buffer[offset + i] = buffer[offset + packetSize + i] }
        for i in 0..<packetSize { buffer[offset + 2 * packetSize + i] = sdt[i] }
        offset += 3 * packetSize
      }
    }
  }
}
