import HLSPackCore
import Testing

struct TransportStreamTableOrderTests {
  /// A 188-byte packet with `pid` and a marker byte to follow it around.
  func packet(_ pid: UInt16, _ marker: UInt8) -> [UInt8] {
    [0x47, UInt8(0x40 | pid >> 8), UInt8(pid & 0xFF), 0x10] + [UInt8](repeating: marker, count: 184)
  }

  @Test func sdtPATPMTBecomesPATPMTSDTWhereverItOccurs() {
    let sdt = packet(0x11, 1), pat = packet(0, 2), pmt = packet(0x1000, 3), video = packet(0x100, 4)
    var stream = sdt + pat + pmt + video + video + sdt + pat + pmt + video
    TransportStreamTableOrder.putPATFirst(&stream)
    #expect(stream == pat + pmt + sdt + video + video + pat + pmt + sdt + video)
  }

  @Test func anSDTNotFollowedByAPATStays() {
    let alone = packet(0x11, 1) + packet(0x100, 4) + packet(0, 2) + packet(0x1000, 3)
    var stream = alone
    TransportStreamTableOrder.putPATFirst(&stream)
    #expect(stream == alone)
  }
}
