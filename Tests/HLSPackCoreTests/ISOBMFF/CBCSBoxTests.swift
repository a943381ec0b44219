import HLSPackTestSupport
import Testing

@testable import HLSPackCore

/// Hand-made init segments and fragments: the sizes, offsets and auxiliary
/// information of CBCSInitProtector and CBCSFragmentEncryptor (ISO/IEC 23001-7;
/// docs/conformance.md, Worked examples), byte by byte.
@Suite struct CBCSBoxTests {
  static let keyID: [UInt8] = Array(0x10...0x1F)
  static let iv: [UInt8] = Array(0xA0...0xAF)

  static func trak(id: Int, entry: [UInt8]) -> [UInt8] {
    let tkhd = box("tkhd", [0, 0, 0, 3] + be32(0) + be32(0) + be32(id) + [UInt8](repeating: 0, count: 68))
    let stsd = box("stsd", be32(0) + be32(1) + entry)
    let stco = box("stco", be32(0) + be32(0))
    let stbl = box("stbl", stsd + stco)
    let minf = box("minf", box("vmhd", be32(1) + [UInt8](repeating: 0, count: 8)) + stbl)
    return box("trak", tkhd + box("mdia", box("mdhd", [UInt8](repeating: 0, count: 24)) + minf))
  }

  static func avc1(config: [UInt8]) -> [UInt8] {
    // SampleEntry (6 reserved, data_reference_index 1) + 70 bytes of VisualSampleEntry fields.
    box("avc1", [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 70) + box("avcC", config))
  }

  static func mp4a() -> [UInt8] {
    box("mp4a", [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 20) + box("esds", [0, 0, 0, 0, 3, 0]))
  }

  static func initSegment(videoEntry: [UInt8]? = nil) -> [UInt8] {
    let ftyp = box("ftyp", Array("iso5".utf8) + be32(512) + Array("iso5mp41".utf8))
    let trex = { (id: Int) in box("trex", be32(0) + be32(id) + be32(1) + be32(0) + be32(0) + be32(0)) }
    let entry = videoEntry ?? avc1(config: HandMadeH264.avcC(sps: HandMadeH264.sps(), pps: HandMadeH264.pps()))
    let moov = box(
      "moov",
      box("mvhd", [UInt8](repeating: 0, count: 100)) + trak(id: 1, entry: entry) + trak(id: 2, entry: mp4a())
        + box("mvex", trex(1) + trex(2)))
    return ftyp + moov
  }

  // MARK: - Patterns

  @Test func videoPatternEncryptsOneBlockInTenWhileAWholeBlockRemains() {
    // The worked `cbcs` example: protected bytes 35..<1028 (993): blocks at 35, 195, …, 995; after
    // [995, 1011) only 17 bytes remain, fewer than the 144 to skip, and no block follows.
    let runs = CBCSPattern.video.encryptedRuns(in: 35..<1028)
    #expect(runs == stride(from: 35, through: 995, by: 160).map { $0..<$0 + 16 })
    #expect(runs.count == 7)
    // A final whole block is encrypted (at least 16 bytes, unlike TS SAMPLE-AES's "more than 16").
    #expect(CBCSPattern.video.encryptedRuns(in: 0..<176) == [0..<16, 160..<176])
    #expect(CBCSPattern.video.encryptedRuns(in: 0..<175) == [0..<16])
    #expect(CBCSPattern.video.encryptedRuns(in: 10..<25) == [])
  }

  @Test func audioPatternEncryptsEveryWholeBlockFromByteZero() {
    #expect(CBCSPattern.audio.encryptedRuns(in: 100..<200) == [100..<196])
    #expect(CBCSPattern.audio.encryptedRuns(in: 0..<15) == [])
    #expect(CBCSPattern.audio.encryptedRuns(in: 0..<32) == [0..<32])
  }

  // MARK: - Subsample maps

  static func mapper() throws -> CBCSSubsampleMapper {
    let config = try DecoderConfiguration.avc(HandMadeH264.avcC(sps: HandMadeH264.sps(), pps: HandMadeH264.pps()))
    return try CBCSSubsampleMapper(codec: .h264, configuration: config)
  }

  @Test func workedExampleM10() throws {
    let sample = lengthPrefixed([HandMadeH264.sei(length: 20), HandMadeH264.idr(length: 1000)])
    #expect(HandMadeH264.idrHeaderBits().bits.count == 48)
    // (4 + 20) SEI + 4 length + 1 NAL header + 6 slice header = 35 clear; 1000 − 7 = 993 protected.
    #expect(
      try Self.mapper().subsamples(sample, sample: 0..<sample.count) == [CBCSSubsample(clear: 35, protected: 993)])
  }

  @Test func clearBytesAfterTheLastSliceFormTheirOwnSubsample() throws {
    let sample = lengthPrefixed([HandMadeH264.idr(length: 1000), HandMadeH264.sei(length: 20)])
    #expect(
      try Self.mapper().subsamples(sample, sample: 0..<sample.count) == [
        CBCSSubsample(clear: 11, protected: 993), CBCSSubsample(clear: 24, protected: 0),
      ])
    let noSlice = lengthPrefixed([HandMadeH264.sei(length: 20), HandMadeH264.sps(), HandMadeH264.pps()])
    #expect(
      try Self.mapper().subsamples(noSlice, sample: 0..<noSlice.count) == [
        CBCSSubsample(clear: noSlice.count, protected: 0)
      ])
  }

  @Test func clearCountsAbove65535AreSplit() throws {
    let sample = lengthPrefixed([HandMadeH264.sei(length: 70_000), HandMadeH264.idr(length: 1000)])
    // 4 + 70000 + 4 + 1 + 6 = 70015 = 65535 + 4480.
    #expect(
      try Self.mapper().subsamples(sample, sample: 0..<sample.count) == [
        CBCSSubsample(clear: 65535, protected: 0), CBCSSubsample(clear: 4480, protected: 993),
      ])
  }

  @Test func emulationPreventionBytesInsideTheHeaderAreClear() throws {
    // frame_num and pic_order_cnt_lsb of 16 zero bits each: the 41-bit header
    // B8 00 00 00 05 .. is escaped to B8 00 00 03 00 05 .., 6 RBSP bytes in 7.
    let sps = HandMadeH264.sps(frameNumExtra: 12, pocType: 0, pocLsbExtra: 12)
    var w = RBSPWriter()
    w.ue(0)  // first_mb_in_slice
    w.ue(2)  // slice_type: I
    w.ue(0)  // pic_parameter_set_id
    w.u(16, 0)  // frame_num
    w.u(16, 0)  // pic_order_cnt_lsb (nal_ref_idc 0: no dec_ref_pic_marking)
    w.se(0)  // slice_qp_delta
    w.ue(1)  // disable_deblocking_filter_idc: 1, no offsets
    #expect(w.bits.count == 41)
    w.u(7, 0x55)  // slice data starts inside the 6th byte
    let header = EmulationPrevention.inserted(w.bytes)
    #expect(Array(header.prefix(7)) == [0xB8, 0x00, 0x00, 0x03, 0x00, 0x05, 0x55])
    let slice = [0x01] + header + [UInt8](repeating: 0xA5, count: 200)  // nal_ref_idc 0, type 1
    let mapper = try CBCSSubsampleMapper(
      codec: .h264, configuration: DecoderConfiguration.avc(HandMadeH264.avcC(sps: sps, pps: HandMadeH264.pps())))
    let sample = lengthPrefixed([slice])
    #expect(
      try mapper.subsamples(sample, sample: 0..<sample.count) == [
        CBCSSubsample(clear: 4 + 1 + 7, protected: slice.count - 8)
      ])
  }

  @Test func parameterSetsInTheSampleReplaceTheSampleEntrys() throws {
    // The sample's own SPS widens frame_num to 16 bits; the header then ends 12 bits later.
    let wide = HandMadeH264.sps(frameNumExtra: 12)
    var w = RBSPWriter()
    w.ue(0)
    w.ue(7)
    w.ue(0)
    w.u(16, 0xFFFF)  // frame_num
    w.ue(0)  // idr_pic_id
    w.u(6, 0)  // pic_order_cnt_lsb
    w.flag(false)
    w.flag(false)
    w.se(0)
    w.ue(1)
    let idr = [0x65] + EmulationPrevention.inserted(w.bytes) + [UInt8](repeating: 0xA5, count: 100)
    let headerBytes = (w.bits.count + 7) / 8
    let sample = lengthPrefixed([wide, HandMadeH264.pps(), idr])
    #expect(
      try Self.mapper().subsamples(sample, sample: 0..<sample.count) == [
        CBCSSubsample(
          clear: 4 + wide.count + 4 + HandMadeH264.pps().count + 4 + 1 + headerBytes,
          protected: idr.count - 1 - headerBytes)
      ])
  }

  @Test func unsupportedSyntaxIsRefusedByName() throws {
    let partition = lengthPrefixed([[0x02] + [UInt8](repeating: 0xA5, count: 40)])
    #expect(throws: MediaFormatError.self) { try Self.mapper().subsamples(partition, sample: 0..<partition.count) }
    do {
      _ = try Self.mapper().subsamples(partition, sample: 0..<partition.count)
    } catch {
      #expect("\(error)".contains("nal_unit_type"), "\(error)")
    }
    var w = RBSPWriter()
    w.ue(0)
    w.ue(0)
    w.flag(false)
    w.flag(false)
    w.ue(2)  // num_slice_groups_minus1: FMO
    w.trailing()
    do {
      _ = try H264PPS([0x68] + w.bytes, 0..<(1 + w.bytes.count))
      Issue.record("FMO accepted")
    } catch {
      #expect("\(error)".contains("num_slice_groups_minus1"), "\(error)")
    }
    let truncated = lengthPrefixed([[0x65, 0x88]])
    do {
      _ = try Self.mapper().subsamples(truncated, sample: 0..<truncated.count)
      Issue.record("truncated slice accepted")
    } catch {
      #expect("\(error)".contains("H.264 slice header"), "\(error)")
    }
  }

  // MARK: - Init segment

  @Test func initProtectorWritesEncvEncaAndTheirSinf() throws {
    let clear = Self.initSegment()
    let protected = try CBCSInitProtector(keyID: Self.keyID, constantIV: Self.iv).protect(clear)
    let videoSinf = CBCSInitProtector.sinf(format: "avc1", pattern: .video, keyID: Self.keyID, constantIV: Self.iv)
    #expect(
      videoSinf == [
        0, 0, 0, 97, 0x73, 0x69, 0x6E, 0x66,  // sinf, 97 bytes
        0, 0, 0, 12, 0x66, 0x72, 0x6D, 0x61,  // frma
        0x61, 0x76, 0x63, 0x31,  // original format 'avc1'
        0, 0, 0, 20, 0x73, 0x63, 0x68, 0x6D,  // schm
        0, 0, 0, 0,  // version 0, flags 0
        0x63, 0x62, 0x63, 0x73,  // scheme_type 'cbcs'
        0x00, 0x01, 0x00, 0x00,  // scheme_version 1.0
        0, 0, 0, 57, 0x73, 0x63, 0x68, 0x69,  // schi
        0, 0, 0, 49, 0x74, 0x65, 0x6E, 0x63,  // tenc
        1, 0, 0, 0,  // version 1 (pattern fields), flags 0
        0,  // reserved
        0x19,  // crypt_byte_block 1, skip_byte_block 9
        1,  // default_isProtected
        0,  // default_Per_Sample_IV_Size: constant IV
      ] + Self.keyID  // default_KID
        + [16]  // default_constant_IV_size
        + Self.iv)  // default_constant_IV
    let audioSinf = CBCSInitProtector.sinf(format: "mp4a", pattern: .audio, keyID: Self.keyID, constantIV: Self.iv)
    #expect(audioSinf[16..<20].elementsEqual("mp4a".utf8))
    #expect(audioSinf[61] == 0x00, "audio: crypt 0, skip 0")
    #expect(videoSinf[61] == 0x19)
    // ftyp gains iso6; each sample entry gains its sinf; every enclosing box grows with it.
    #expect(protected.count == clear.count + 4 + 2 * 97)
    let top = try ISOBox.children(of: protected, in: 0..<protected.count, context: "test")
    #expect(top.map(\.type) == ["ftyp", "moov"])
    #expect(protected[(top[0].end - 4)..<top[0].end].elementsEqual("iso6".utf8))
    let layout = try InitSegmentLayout(clear)
    let again = try ISOBox.children(of: protected, in: top[1].payloadRange, context: "moov")
    #expect(again.filter { $0.type == "trak" }.map(\.size) == layout.tracks.map { $0.ancestors[1].size + 97 })
    for (track, format, type) in [(0, "avc1", "encv"), (1, "mp4a", "enca")] {
      let trak = again.filter { $0.type == "trak" }[track]
      let start = try #require(
        protected.indices.dropFirst(trak.start).first { protected[$0..<$0 + 4].elementsEqual(type.utf8) })
      #expect(start < trak.end, "\(type) inside track \(track)")
      let sinf = try #require(
        protected.indices.dropFirst(start).first { protected[$0..<$0 + 4].elementsEqual("frma".utf8) })
      #expect(protected[(sinf + 4)..<(sinf + 8)].elementsEqual(format.utf8))
    }
    // The protected init still reads, and cannot be protected twice.
    _ = try CBCSFragmentEncryptor(initSegment: protected, cipher: RecordingCipher())
    #expect(throws: MediaFormatError.self) {
      try CBCSInitProtector(keyID: Self.keyID, constantIV: Self.iv).protect(protected)
    }
  }

  @Test func initProtectorRefusesWhatItCannotProtect() throws {
    let hev1 = box("hev1", [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 70) + box("hvcC", [1]))
    do {
      _ = try CBCSInitProtector(keyID: Self.keyID, constantIV: Self.iv).protect(Self.initSegment(videoEntry: hev1))
      Issue.record("hev1 accepted")
    } catch {
      #expect("\(error)".contains("'hev1'"), "\(error)")
    }
    #expect(throws: MediaFormatError.self) { try CBCSInitProtector(keyID: [1, 2], constantIV: Self.iv) }
    #expect(throws: MediaFormatError.self) {
      try CBCSInitProtector(keyID: Self.keyID, constantIV: Array(Self.iv.prefix(8)))
    }
  }

  /// Size 0 means "to the end of the file" (ISO/IEC 14496-12 §4.2): an avcC
  /// of size 0 inside avc1 swallowed the sinf inserted after it, and the
  /// protected init had an encv without sinf (found by fuzz-init-segment).
  @Test func sizeZeroOnlyForATopLevelBox() throws {
    var entry = Self.avc1(config: HandMadeH264.avcC(sps: HandMadeH264.sps(), pps: HandMadeH264.pps()))
    entry.replaceSubrange(86..<90, with: be32(0))  // avcC's size, after 8 + 78 bytes of avc1
    #expect(throws: MediaFormatError.self) {
      try CBCSInitProtector(keyID: Self.keyID, constantIV: Self.iv).protect(Self.initSegment(videoEntry: entry))
    }
    let mdat = be32(0) + Array("mdat".utf8) + [1, 2, 3]
    #expect(try ISOBox.children(of: mdat, in: 0..<mdat.count, context: "test").map(\.end) == [11])
  }

  // MARK: - Fragments

  /// moof(mfhd, traf video, traf audio) + mdat with `video` and `audio` samples.
  static func fragment(video: [[UInt8]], audio: [[UInt8]]) -> (bytes: [UInt8], moofSize: Int) {
    func traf(id: Int, samples: [[UInt8]], dataOffset: Int) -> [UInt8] {
      let tfhd = box("tfhd", [0, 0x02, 0, 0x20] + be32(id) + be32(0x0101_0000))  // default-base-is-moof, default flags
      let tfdt = box("tfdt", [1, 0, 0, 0] + be32(0) + be32(0))
      let trun = box(
        "trun", [0, 0, 0x02, 0x01] + be32(samples.count) + be32(dataOffset) + samples.flatMap { be32($0.count) })
      return box("traf", tfhd + tfdt + trun)
    }
    let mfhd = box("mfhd", be32(0) + be32(1))
    // Sizes do not depend on data offsets, so lay out once with zeros to measure.
    let probe = box(
      "moof", mfhd + traf(id: 1, samples: video, dataOffset: 0) + traf(id: 2, samples: audio, dataOffset: 0))
    let videoStart = probe.count + 8
    let audioStart = videoStart + video.reduce(0) { $0 + $1.count }
    let moof = box(
      "moof",
      mfhd + traf(id: 1, samples: video, dataOffset: videoStart) + traf(id: 2, samples: audio, dataOffset: audioStart))
    return (moof + box("mdat", video.flatMap { $0 } + audio.flatMap { $0 }), moof.count)
  }

  @Test func fragmentEncryptorAddsSencSaizSaioAndMovesTheData() throws {
    let m10 = lengthPrefixed([HandMadeH264.sei(length: 20), HandMadeH264.idr(length: 1000)])
    let small = lengthPrefixed([HandMadeH264.idr(length: 40)])  // 4 + 7 clear, 33 protected: one block
    let audio: [[UInt8]] = [[UInt8](repeating: 0x11, count: 100), [UInt8](repeating: 0x22, count: 15)]
    let (clear, moofSize) = Self.fragment(video: [m10, small], audio: audio)
    let cipher = RecordingCipher()
    let encryptor = try CBCSFragmentEncryptor(initSegment: Self.initSegment(), cipher: cipher)
    let out = try encryptor.encrypt(clear)

    // Video traf: saiz 17 + saio 20 + senc (16 + 2 × 8) = 69; audio: saiz 19 + saio 20 + senc 16 = 55.
    let growth = 69 + 55
    #expect(out.count == clear.count + growth)
    let top = try ISOBox.children(of: out, in: 0..<out.count, context: "test")
    #expect(top.map(\.type) == ["moof", "mdat"])
    let moof = top[0]
    #expect(moof.size == moofSize + growth)
    let trafs = try ISOBox.children(of: out, in: moof.payloadRange, context: "moof").filter { $0.type == "traf" }
    #expect(trafs.count == 2)
    let video = try ISOBox.children(of: out, in: trafs[0].payloadRange, context: "traf")
    let audioBoxes = try ISOBox.children(of: out, in: trafs[1].payloadRange, context: "traf")
    #expect(video.map(\.type) == ["tfhd", "tfdt", "trun", "saiz", "saio", "senc"])
    #expect(audioBoxes.map(\.type) == ["tfhd", "tfdt", "trun", "saiz", "saio", "senc"])

    // trun data_offset: moved by the growth, still pointing at the first sample in the mdat.
    let videoTrun = video[2], audioTrun = audioBoxes[2]
    #expect(Int(readBE32(out, videoTrun.payload + 8)) == moofSize + 8 + growth)
    #expect(Int(readBE32(out, audioTrun.payload + 8)) == moofSize + 8 + growth + m10.count + small.count)

    let senc = video[5]
    #expect(
      Array(out[senc.payload..<senc.end]) == [
        0, 0, 0, 2,  // version 0, flags 2: subsamples
        0, 0, 0, 2,  // sample_count
        0, 1, 0, 35, 0, 0, 0x03, 0xE1,  // 1 subsample: 35 clear, 993 protected
        0, 1, 0, 11, 0, 0, 0, 33,  // 1 subsample: 11 clear, 33 protected
      ])
    #expect(Array(out[video[3].payload..<video[3].end]) == [0, 0, 0, 0, 8, 0, 0, 0, 2], "saiz: default size 2 + 6")
    #expect(
      Array(out[video[4].payload..<video[4].end]) == [0, 0, 0, 0, 0, 0, 0, 1] + be32(senc.start - moof.start + 16))
    let audioSenc = audioBoxes[5]
    #expect(
      Array(out[audioSenc.payload..<audioSenc.end]) == [0, 0, 0, 0, 0, 0, 0, 2], "flags 0, 2 samples, no records")
    #expect(
      Array(out[audioBoxes[3].payload..<audioBoxes[3].end]) == [0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0], "saiz: sizes 0, 0")
    #expect(
      Array(out[audioBoxes[4].payload..<audioBoxes[4].end]) == [0, 0, 0, 0, 0, 0, 0, 1]
        + be32(audioSenc.start - moof.start + 16))

    // Chains: one per video subsample (the worked example: 7 blocks; 33 bytes: 1 block),
    // one per audio sample with a whole block.
    let base = moofSize + 8  // first video sample in the clear fragment
    #expect(
      cipher.chains == [
        stride(from: base + 35, through: base + 995, by: 160).map { $0..<$0 + 16 },
        [(base + m10.count + 11)..<(base + m10.count + 27)],
        [(base + m10.count + small.count)..<(base + m10.count + small.count + 96)],
      ])
    // The mdat holds the same bytes, marked where encrypted, at their new place.
    let mdat = top[1]
    var expected = Array(clear[(moofSize + 8)...])
    for run in cipher.chains.joined() { for i in run { expected[i - moofSize - 8] ^= 0xFF } }
    #expect(Array(out[mdat.payload...]) == expected)
  }

  @Test func saizListsEachSizeWhenSamplesDiffer() throws {
    // Two slices in one picture: two subsamples, a record of 2 + 2 × 6 bytes.
    let twoSlices = lengthPrefixed([HandMadeH264.idr(length: 100), HandMadeH264.idr(length: 100)])
    let oneSlice = lengthPrefixed([HandMadeH264.idr(length: 100)])
    let (clear, _) = Self.fragment(video: [oneSlice, twoSlices], audio: [])
    let out = try CBCSFragmentEncryptor(initSegment: Self.initSegment(), cipher: RecordingCipher()).encrypt(clear)
    let moof = try #require(try ISOBox.children(of: out, in: 0..<out.count, context: "test").first)
    let traf = try #require(
      try ISOBox.children(of: out, in: moof.payloadRange, context: "moof").first { $0.type == "traf" })
    let boxes = try ISOBox.children(of: out, in: traf.payloadRange, context: "traf")
    let saiz = try #require(boxes.first { $0.type == "saiz" })
    #expect(Array(out[saiz.payload..<saiz.end]) == [0, 0, 0, 0, 0, 0, 0, 0, 2, 8, 14], "default 0, then 8 and 14")
    let senc = try #require(boxes.first { $0.type == "senc" })
    #expect(
      Array(out[(senc.payload + 8)..<senc.end]) == [
        0, 1, 0, 11, 0, 0, 0, 93,  // one slice: 4 + 1 + 6 clear, 93 protected
        0, 2, 0, 11, 0, 0, 0, 93, 0, 11, 0, 0, 0, 93,  // two slices: a subsample each
      ])
  }

  @Test func fragmentEncryptorRefusesFragmentsItCannotAddress() throws {
    let encryptor = try CBCSFragmentEncryptor(initSegment: Self.initSegment(), cipher: RecordingCipher())
    let (clear, _) = Self.fragment(video: [lengthPrefixed([HandMadeH264.idr(length: 40)])], audio: [])
    let protected = try encryptor.encrypt(clear)
    do {
      _ = try encryptor.encrypt(protected)
      Issue.record("a protected fragment was protected again")
    } catch {
      #expect("\(error)".contains("already protected"), "\(error)")
    }
    var lying = clear
    // The first sample claims 4000 bytes: more than the mdat holds.
    let trun = try #require(clear.indices.first { clear[$0..<$0 + 4].elementsEqual("trun".utf8) })
    lying.replaceSubrange((trun + 16)..<(trun + 20), with: be32(4000))
    #expect(throws: MediaFormatError.self) { try encryptor.encrypt(lying) }
  }
}
