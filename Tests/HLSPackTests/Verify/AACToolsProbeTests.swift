import Foundation
import HLSPackCore
import HLSPackMedia
import HLSPackTestSupport
import Testing

/// libavcodec tells HE-AAC signalled implicitly (an ADTS header that says
/// AAC-LC, SBR data in a fill element) from plain AAC-LC.
@Suite struct AACToolsProbeTests {
  /// Real AAC-LC from the ffmpeg CLI's encoder, as ADTS.
  @Test func plainAACLC() throws {
    let folder = try ScratchFolder.make()
    let adts = folder.appendingPathComponent("lc.aac")
    let made = try Command.run(
      "ffmpeg",
      [
        "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=d=0.5:r=48000", "-ac", "2", "-c:a", "aac",
        "-f", "adts", adts.path,
      ])
    #expect(made.status == 0, "\(made.stderr)")
    let bytes = [UInt8](try Data(contentsOf: adts))
    #expect(AACToolsProbe.tools(AACProbe(config: nil, units: [bytes])) == AACTools(sbr: false, ps: false))
  }

  /// No HE-AAC encoder ships with Debian's FFmpeg, so the frames are built
  /// by hand (ISO/IEC 14496-3 §4.4.2.1): a channel pair of two silent
  /// long-window channels (max_sfb 0), then a fill element whose extension
  /// payload is EXT_SBR_DATA, the implicit signal a decoder looks for.
  @Test func implicitSBRInADTS() {
    func frame(sbr: Bool) -> [UInt8] {
      var bits = RBSPBits()
      bits.put(3, 1)  // ID_CPE
      bits.put(4, 0)  // element_instance_tag
      bits.put(1, 0)  // common_window
      for _ in 0..<2 {
        bits.put(8, 100)  // global_gain
        bits.put(1, 0)  // ics_reserved_bit
        bits.put(2, 0)  // window_sequence: ONLY_LONG_SEQUENCE
        bits.put(1, 0)  // window_shape
        bits.put(6, 0)  // max_sfb
        bits.put(1, 0)  // predictor_data_present
        bits.put(3, 0)  // pulse, tns, gain control data absent
      }
      if sbr {
        bits.put(3, 6)  // ID_FIL
        bits.put(4, 4)  // count: 4 bytes of extension payload
        bits.put(4, 13)  // EXT_SBR_DATA
        bits.put(28, 0)
      }
      bits.put(3, 7)  // ID_END
      let payload = bits.bytes
      let length = payload.count + 7
      // ADTS: MPEG-4, no CRC, profile LC, 24 kHz (index 6), two channels.
      return [
        0xFF, 0xF1, 0x58, UInt8(0x80 | length >> 11), UInt8(length >> 3 & 0xFF), UInt8((length & 7) << 5 | 0x1F), 0xFC,
      ]
        + payload
    }
    let lc = AACToolsProbe.tools(
      AACProbe(config: nil, units: [Array(repeating: frame(sbr: false), count: 4).flatMap { $0 }]))
    #expect(lc == AACTools(sbr: false, ps: false))
    let he = AACToolsProbe.tools(
      AACProbe(config: nil, units: [Array(repeating: frame(sbr: true), count: 4).flatMap { $0 }]))
    #expect(he?.sbr == true)
  }
}

/// MSB-first bits, padded with zeros to a byte.
private struct RBSPBits {
  private var bits: [Bool] = []

  mutating func put(_ width: Int, _ value: Int) {
    for i in stride(from: width - 1, through: 0, by: -1) { bits.append(value >> i & 1 == 1) }
  }

  var bytes: [UInt8] {
    stride(from: 0, to: bits.count, by: 8).map { start in
      (0..<8).reduce(UInt8(0)) { acc, i in acc << 1 | (start + i < bits.count && bits[start + i] ? 1 : 0) }
    }
  }
}
