import HLSPackTestSupport
import Testing

@testable import HLSPackCore
@testable import HLSPackVerify

/// The audio facts verify reads from fMP4 boxes and TS frames, built byte by byte.
@Suite struct AudioFactsTests {
  /// An init with one AAC track (timescale 48000) whose trex gives `trexDuration`.
  static func audioInit(trexDuration: Int, config: [UInt8] = [0x11, 0x90]) -> [UInt8] {
    let fullBox = { (type: String, body: [UInt8]) in box(type, [0, 0, 0, 0] + body) }
    let specific = [0x05, UInt8(config.count)] + config
    let decoderConfig = [0x04, UInt8(13 + specific.count), 0x40, 0x15] + [UInt8](repeating: 0, count: 11) + specific
    let es = [0x03, UInt8(3 + decoderConfig.count + 3), 0, 1, 0] + decoderConfig + [0x06, 1, 2]
    let mp4a = box(
      "mp4a",
      [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8) + [0, 2, 0, 16, 0, 0, 0, 0] + be32(48_000 << 16)
        + fullBox("esds", es))
    let stbl = box(
      "stbl",
      fullBox("stsd", be32(1) + mp4a) + fullBox("stts", be32(0)) + fullBox("stsc", be32(0))
        + fullBox("stsz", be32(0) + be32(0)) + fullBox("stco", be32(0)))
    let mdia = box(
      "mdia",
      fullBox("mdhd", be32(0) + be32(0) + be32(48_000) + be32(0) + [0x55, 0xC4, 0, 0])
        + box("minf", stbl))
    let trak = box("trak", fullBox("tkhd", be32(0) + be32(0) + be32(1) + [UInt8](repeating: 0, count: 72)) + mdia)
    let trex = fullBox("trex", be32(1) + be32(1) + be32(trexDuration) + be32(4) + be32(0))
    return box("ftyp", Array("iso6".utf8) + be32(0)) + box("moov", trak + box("mvex", trex))
  }

  /// One moof + mdat of `durations.count` 4-byte samples; `perSample`
  /// writes them in the trun, else `tfhdDuration` (when set) in the tfhd.
  static func segment(durations: [Int], perSample: Bool, tfhdDuration: Int?, start: Int = 0) -> [UInt8] {
    let fullBox = { (type: String, flags: Int, body: [UInt8]) in box(type, be32(flags) + body) }
    let tfhd = fullBox("tfhd", 0x2_0000 | (tfhdDuration == nil ? 0 : 0x8), be32(1) + (tfhdDuration.map(be32) ?? []))
    func moof(offset: Int) -> [UInt8] {
      let trun = fullBox(
        "trun", 0x1 | (perSample ? 0x100 : 0),
        be32(durations.count) + be32(offset)
          + (perSample ? durations.flatMap(be32) : []))
      return box("moof", fullBox("mfhd", 0, be32(1)) + box("traf", tfhd + fullBox("tfdt", 0, be32(start)) + trun))
    }
    let size = moof(offset: 0).count
    return moof(offset: size + 8) + box("mdat", [UInt8](repeating: 0x21, count: 4 * durations.count))
  }

  func frameDuration(_ segment: [UInt8], trex: Int) throws -> Int64? {
    let section = try FragmentedInitSection(Self.audioInit(trexDuration: trex))
    var bytes = segment
    return FragmentInspector.inspect(&bytes, initSection: section, cipher: nil, decode: nil).frameDuration
  }

  /// ISO/IEC 14496-12 §8.8: a sample's duration is its trun's, else the tfhd's default, else the trex's.
  @Test func frameDurationFromWhicheverBoxGivesIt() throws {
    let frames = [Int](repeating: 1024, count: 5)
    #expect(try frameDuration(Self.segment(durations: frames, perSample: true, tfhdDuration: 7), trex: 9) == 1024)
    #expect(try frameDuration(Self.segment(durations: frames, perSample: false, tfhdDuration: 1024), trex: 9) == 1024)
    #expect(try frameDuration(Self.segment(durations: frames, perSample: false, tfhdDuration: nil), trex: 1024) == 1024)
  }

  /// A trimmed frame (Shaka writes the last audio frame's true length, here
  /// 10 ticks) is not the frame EXTINF is measured by: 283 frames against
  /// EXTINF 6.016 (282 frames) is within one 21.3 ms frame.
  @Test func trimmedFrameDoesNotShrinkTheTolerance() throws {
    let durations = [10] + [Int](repeating: 1024, count: 283)
    let bytes = Self.segment(durations: durations, perSample: true, tfhdDuration: nil)
    let section = try FragmentedInitSection(Self.audioInit(trexDuration: 0))
    var copy = bytes
    let facts = FragmentInspector.inspect(&copy, initSection: section, cipher: nil, decode: nil)
    #expect(facts.frameDuration == 1024 && facts.audioCodecs == ["mp4a.40.2"])
    let playlist = VerifiedMediaPlaylist(
      PlaylistText(Array("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.016,\na_1.m4s\n#EXT-X-ENDLIST\n".utf8)))
    let inspected = [InspectedSegment(segment: playlist.segments[0], facts: facts)]
    #expect(BitstreamRules.media(inspected, file: "a.m3u8").isEmpty)
  }

  /// Shaka Packager's config: AAC-LC, then the sync extension 0x2B7 saying
  /// SBR absent (backward-compatible explicit signalling).
  @Test func explicitSignalling() throws {
    #expect(AACTools.signalled(by: [0x11, 0x90, 0x56, 0xE5, 0x00][...]) == AACTools(sbr: false, ps: false))
    #expect(AACTools.signalled(by: [0x11, 0x90][...]) == nil)
    // Hierarchical: audioObjectType 5, 29.
    #expect(AACTools.signalled(by: [0x2B, 0x11, 0x88, 0x00][...]) == AACTools(sbr: true, ps: false))
    #expect(AACTools.signalled(by: [0xEB, 0x11, 0x88, 0x00][...]) == AACTools(sbr: true, ps: true))
    // Escaped object type 31 + 6 bits (= 32 + 10): not AAC-LC, nothing said of SBR.
    #expect(AACTools.signalled(by: [0xF9, 0x40, 0x00][...]) == nil)
    // Backward compatible with SBR present (extension rate index 3), then 0x548 and psPresentFlag 1.
    var bits = RBSPWriter()
    for (width, value) in [(5, 2), (4, 6), (4, 2), (3, 0), (11, 0x2B7), (5, 5), (1, 1), (4, 3), (11, 0x548), (1, 1)] {
      bits.u(width, value)
    }
    #expect(AACTools.signalled(by: bits.bytes[...]) == AACTools(sbr: true, ps: true))
  }

  /// An E-AC-3 syncframe (A/52 Annex E): frmsiz 383 (768 bytes), 48 kHz, six blocks, bsid 16.
  @Test func enhancedAC3Frames() throws {
    var frame = [0x0B, 0x77, 0x01, 0x7F, 0x3C, 16 << 3] + [UInt8](repeating: 0, count: 762)
    frame += frame
    var found: [DolbySyncFrames.Frame] = []
    try frame.withUnsafeBufferPointer { buffer in try DolbySyncFrames.forEach(in: buffer) { found.append($0) } }
    #expect(found.map(\.codec) == ["ec-3", "ec-3"] && found.map(\.samples) == [1536, 1536])
    #expect(found.map(\.range) == [0..<768, 768..<1536] && found.first?.sampleRate == 48_000)
  }
}
