import FuzzSupport
import HLSPackCore

/// TransportStreamPMTRewriter on whole TS packets, as SAMPLE-AES runs it on
/// each segment; then again on the same packets with every section's CRC_32
/// made right, so that mutations reach the PAT and PMT parsers past the CRC
/// check. A rewritten buffer must come out the same from a second rewrite.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPMTRewriter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = fuzzInput(data, size)
  let packetSize = TransportStreamPMTRewriter.packetSize
  let packets = Array(input.prefix(input.count / packetSize * packetSize))
  for candidate in [packets, withSectionCRCs(packets)] {
    var once = candidate
    var rewriter = TransportStreamPMTRewriter(signalling: signalling)
    guard (try? rewriter.rewrite(&once)) != nil else {
      precondition(once == candidate, "a refused buffer was changed")
      continue
    }
    var twice = once
    var again = TransportStreamPMTRewriter(signalling: signalling)
    precondition((try? again.rewrite(&twice)) != nil && twice == once, "rewriting a rewritten buffer changed it")
    TransportStreamTableOrder.putPATFirst(&once)
  }
  // The section parser and writer alone, on the input with a right CRC_32 where its section_length puts it.
  if input.count >= 3, let pmt = try? PMTSection(parsing: withCRC(input)), let bytes = try? pmt.serialized() {
    precondition((try? PMTSection(parsing: bytes)) == pmt, "a written PMT reads back differently")
    _ = try? signalling.encrypted(pmt).serialized()
  }
  _ = try? SampleAESAudioSetup.aac(audioSpecificConfig: Array(input.prefix(8))).encoded()
  _ = try? SampleAESAudioSetup.ac3(syncFrame: input)
  return 0
}

/// FFmpeg's mpegts muxer numbers elementary streams from 0x100; audio setup
/// for the first few makes AAC, AC-3 and E-AC-3 streams convertible.
private let signalling = SampleAESSignalling(
  version: 1,
  audioSetup: [
    0x100: SampleAESAudioSetup(audioType: .aacLC, setupData: [0x11, 0x90]),
    0x101: SampleAESAudioSetup(audioType: .aacLC, setupData: [0x12, 0x10]),
    0x102: SampleAESAudioSetup(audioType: .ac3, setupData: [0x0B, 0x77, 0, 0, 0x14, 0x40, 0x43, 0, 0, 0]),
    0x103: SampleAESAudioSetup(audioType: .eac3, setupData: [0x0C, 0, 0x20, 0x0F, 0]),
  ])

/// `packets` with the CRC_32 of the section that starts in each packet
/// recomputed, where its section_length keeps it inside the packet.
private func withSectionCRCs(_ packets: [UInt8]) -> [UInt8] {
  var out = packets
  let packetSize = TransportStreamPMTRewriter.packetSize
  for packet in stride(from: 0, to: out.count, by: packetSize) {
    guard out[packet + 1] & 0x40 != 0, out[packet + 3] & 0x10 != 0 else { continue }
    var payload = packet + 4
    if out[packet + 3] & 0x20 != 0 { payload += 1 + Int(out[packet + 4]) }
    guard payload < packet + packetSize else { continue }
    let start = payload + 1 + Int(out[payload])
    guard start + 3 <= packet + packetSize else { continue }
    let end = start + 3 + (Int(out[start + 1] & 0x0F) << 8 | Int(out[start + 2]))
    guard end - start >= 7, end <= packet + packetSize else { continue }
    out.replaceSubrange((end - 4)..<end, with: checksumBytes(out[start..<(end - 4)]))
  }
  return out
}

private func withCRC(_ section: [UInt8]) -> [UInt8] {
  let body = section.prefix(max(0, 3 + (Int(section[1] & 0x0F) << 8 | Int(section[2])) - 4))
  return Array(body) + checksumBytes(body)
}

private func checksumBytes(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
  let crc = CRC32MPEG2.checksum(bytes)
  return [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
}
