import Testing

@testable import HLSPackCore

/// Byte vectors from Shaka Packager's PMT unit test (docs/conformance.md, Worked examples): PMT PID
/// 0x20, ES PID 0x50 = PCR PID, program 1, version 0.
enum L4 {
  static let aacSection: [UInt8] = [
    0x02, 0xB0, 0x28,  // table_id, section_syntax_indicator, section_length 40
    0x00, 0x01,  // program_number 1
    0xC1,  // version 0, current_next_indicator 1
    0x00, 0x00,  // section_number, last_section_number
    0xE0, 0x50,  // PCR_PID 0x50
    0xF0, 0x00,  // program_info_length 0
    0xCF, 0xE0, 0x50, 0xF0, 0x16,  // stream_type 0xCF (encrypted ADTS AAC), PID 0x50, ES_info_length 22
    0x0F, 0x04, 0x61, 0x61, 0x63, 0x64,  // private_data_indicator "aacd"
    0x05, 0x0E, 0x61, 0x70, 0x61, 0x64,  // registration "apad"
    0x7A, 0x61, 0x61, 0x63,  // audio_type "zaac"
    0x00, 0x00,  // priming
    0x01,  // version
    0x02, 0x12, 0x10,  // setup_data_length 2, AudioSpecificConfig (AAC-LC, 44.1 kHz, stereo)
    0xF7, 0xD5, 0x2A, 0x53,  // CRC_32
  ]

  static let h264Section: [UInt8] = [
    0x02, 0xB0, 0x18,  // table_id, section_length 24
    0x00, 0x01, 0xC1, 0x00, 0x00,  // program 1, version 0, current
    0xE0, 0x50, 0xF0, 0x00,  // PCR_PID 0x50, no program info
    0xDB, 0xE0, 0x50, 0xF0, 0x06,  // stream_type 0xDB (encrypted H.264), PID 0x50, ES_info_length 6
    0x0F, 0x04, 0x7A, 0x61, 0x76, 0x63,  // private_data_indicator "zavc"
    0xA9, 0xC2, 0x95, 0x7C,  // CRC_32
  ]

  static func clearPMT(streamType: UInt8) -> PMTSection {
    PMTSection(programNumber: 1, pcrPID: 0x50, streams: [.init(streamType: streamType, pid: 0x50)])
  }

  static let aacSignalling = SampleAESSignalling(
    audioSetup: [0x50: SampleAESAudioSetup(audioType: .aacLC, setupData: [0x12, 0x10])])
}

@Suite struct TransportStreamPMTTests {
  // MARK: CRC-32/MPEG-2

  @Test func crcCheckValue() {
    // The catalogue check value of CRC-32/MPEG-2.
    #expect(CRC32MPEG2.checksum(Array("123456789".utf8)) == 0x0376_E6E7)
    #expect(CRC32MPEG2.checksum([UInt8]()) == 0xFFFF_FFFF)
  }

  @Test(arguments: [L4.aacSection, L4.h264Section])
  func crcOfTheL4Sections(section: [UInt8]) {
    let body = section.dropLast(4)
    let stored = section.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    #expect(CRC32MPEG2.checksum(body) == stored)
    #expect(CRC32MPEG2.checksum(section) == 0)
  }

  // MARK: The PMT vectors, from a clear PMT

  @Test func encryptedAACPMTMatchesL4() throws {
    let pmt = try L4.aacSignalling.encrypted(L4.clearPMT(streamType: 0x0F))
    #expect(try pmt.serialized() == L4.aacSection)
  }

  @Test func encryptedH264PMTMatchesL4() throws {
    let pmt = try SampleAESSignalling().encrypted(L4.clearPMT(streamType: 0x1B))
    #expect(try pmt.serialized() == L4.h264Section)
  }

  @Test func encryptedSectionFromClearBytes() throws {
    let clear = try L4.clearPMT(streamType: 0x0F).serialized()
    #expect(Array(clear[12..<17]) == [0x0F, 0xE0, 0x50, 0xF0, 0x00])
    #expect(try L4.aacSignalling.encryptedSection(clear) == L4.aacSection)
  }

  @Test func audioSetupFromTheAudioSpecificConfig() throws {
    #expect(try SampleAESAudioSetup.aac(audioSpecificConfig: [0x12, 0x10]) == L4.aacSignalling.audioSetup[0x50])
  }

  /// ISO/IEC 13818-1 §2.4.4.9: after a clear lead the encrypted PMT is version 1 (byte `C3`).
  @Test func clearLeadVersionBump() throws {
    let clear = try L4.clearPMT(streamType: 0x1B).serialized()
    var signalling = SampleAESSignalling()
    signalling.version = 1
    let encrypted = try signalling.encryptedSection(clear)
    #expect(clear[5] == 0xC1)
    #expect(encrypted[5] == 0xC3)
    #expect(Array(encrypted[..<5]) == Array(L4.h264Section[..<5]))
    #expect(Array(encrypted[6..<encrypted.count - 4]) == Array(L4.h264Section[6..<L4.h264Section.count - 4]))
    #expect(CRC32MPEG2.checksum(encrypted) == 0)
    #expect(encrypted.suffix(4) != L4.h264Section.suffix(4))
    #expect(try PMTSection(parsing: encrypted).version == 1)
  }

  // MARK: Parsing and writing

  @Test func parsesTheL4Section() throws {
    let pmt = try PMTSection(parsing: L4.aacSection)
    #expect(pmt.programNumber == 1)
    #expect(pmt.version == 0)
    #expect(pmt.currentNext)
    #expect(pmt.pcrPID == 0x50)
    #expect(pmt.programDescriptors.isEmpty)
    #expect(pmt.streams.count == 1)
    #expect(pmt.streams.first?.streamType == 0xCF)
    #expect(pmt.streams.first?.descriptors.map(\.tag) == [0x0F, 0x05])
    #expect(try pmt.serialized() == L4.aacSection)
  }

  @Test func stuffingAfterTheSectionIsIgnored() throws {
    let pmt = try PMTSection(parsing: L4.h264Section + [UInt8](repeating: 0xFF, count: 20))
    #expect(try pmt.serialized() == L4.h264Section)
  }

  @Test func corruptSectionsAreRefused() {
    var flipped = L4.aacSection
    flipped[20] ^= 0x01
    #expect(throws: TransportStreamError.crcMismatch(tableID: 0x02)) { try PMTSection(parsing: flipped) }
    var pat = L4.aacSection
    pat[0] = 0x00
    #expect(throws: TransportStreamError.self) { try PMTSection(parsing: pat) }
    #expect(throws: TransportStreamError.self) { try PMTSection(parsing: L4.aacSection.dropLast()) }
    #expect(throws: TransportStreamError.self) { try PMTSection(parsing: [0x02, 0xB0]) }
  }

  @Test func unwritableFieldsAreRefused() {
    var pmt = L4.clearPMT(streamType: 0x1B)
    pmt.version = 32
    #expect(throws: TransportStreamError.self) { try pmt.serialized() }
    pmt.version = 0
    pmt.streams[0].descriptors = [.init(tag: 0x0A, data: [UInt8](repeating: 0x20, count: 256))]
    #expect(throws: TransportStreamError.self) { try pmt.serialized() }
    #expect(throws: TransportStreamError.self) {
      try SampleAESSignalling(version: 32).encrypted(L4.clearPMT(streamType: 0x1B))
    }
  }

  // MARK: Signalling rules

  @Test func ac3AndEAC3() throws {
    let syncFrame: [UInt8] = [0x0B, 0x77, 0x12, 0x34, 0x14, 0x40, 0xE1, 0x00, 0x00, 0x00, 0xAA, 0xBB]
    let dec3: [UInt8] = [0x06, 0x00, 0x20, 0x0F, 0x00]
    let clear = PMTSection(
      programNumber: 1, pcrPID: 0x100,
      streams: [.init(streamType: 0x81, pid: 0x101), .init(streamType: 0x87, pid: 0x102)])
    let signalling = SampleAESSignalling(audioSetup: [
      0x101: try .ac3(syncFrame: syncFrame), 0x102: .eac3(dec3: dec3),
    ])
    let pmt = try signalling.encrypted(clear)
    #expect(pmt.streams.map(\.streamType) == [0xC1, 0xC2])
    #expect(
      pmt.streams[0].descriptors == [
        .init(tag: 0x0F, data: Array("ac3d".utf8)),
        .init(tag: 0x05, data: Array("apadzac3".utf8) + [0, 0, 1, 10] + syncFrame.prefix(10)),
      ])
    #expect(
      pmt.streams[1].descriptors == [
        .init(tag: 0x0F, data: Array("ec3d".utf8)),
        .init(tag: 0x05, data: Array("apadzec3".utf8) + [0, 0, 1, 5] + dec3),
      ])
  }

  @Test(arguments: [
    ([UInt8]([0x12, 0x10]), "zaac"), ([0x2B, 0x92, 0x08, 0x00], "zach"), ([0xEB, 0x09, 0x88, 0x00], "zacp"),
  ])
  func aacAudioTypes(asc: [UInt8], audioType: String) throws {
    #expect(try SampleAESAudioSetup.aac(audioSpecificConfig: asc).audioType.rawValue == audioType)
  }

  /// AAC-LC's setup is what ADTS headers can say: FFmpeg's explicit "no SBR"
  /// extension is dropped (Shaka Packager writes `11 90` for this stream);
  /// configurations ADTS cannot express, and HE-AAC's, are kept whole.
  @Test(arguments: [
    ([UInt8]([0x11, 0x90, 0x56, 0xE5, 0x00]), [UInt8]([0x11, 0x90])),
    ([0x12, 0x10], [0x12, 0x10]),
    ([0x11, 0x80, 0x00, 0x01], [0x11, 0x80, 0x00, 0x01]),  // channel configuration 0: a program config element follows
    ([0x17, 0x80, 0x5D, 0xC0, 0x10], [0x17, 0x80, 0x5D, 0xC0, 0x10]),  // frequency index 15: an explicit rate follows
    ([0x2B, 0x92, 0x08, 0x00], [0x2B, 0x92, 0x08, 0x00]),  // HE-AAC
  ])
  func aacSetupIsWhatADTSSays(asc: [UInt8], setup: [UInt8]) throws {
    #expect(try SampleAESAudioSetup.aac(audioSpecificConfig: asc).setupData == setup)
  }

  @Test func unsuitableAudioSetupIsRefused() {
    #expect(throws: TransportStreamError.self) { try SampleAESAudioSetup.aac(audioSpecificConfig: [0x0A, 0x10]) }  // AAC Main
    #expect(throws: TransportStreamError.self) { try SampleAESAudioSetup.aac(audioSpecificConfig: [0x12]) }
    #expect(throws: TransportStreamError.self) { try SampleAESAudioSetup.ac3(syncFrame: [0x0B, 0x77, 0, 0]) }
    let tooLong = SampleAESAudioSetup(audioType: .aacLC, setupData: [UInt8](repeating: 0, count: 244))
    #expect(throws: TransportStreamError.self) { try tooLong.encoded() }
  }

  @Test func otherDescriptorsAndStreamsAreKept() throws {
    let language = PMTSection.Descriptor(tag: 0x0A, data: Array("eng".utf8) + [0])
    let id3 = PMTSection.Stream(streamType: 0x15, pid: 0x102, descriptors: [.init(tag: 0x26, data: [0xFF, 0xFF])])
    let clear = PMTSection(
      programNumber: 1, pcrPID: 0x100, programDescriptors: [.init(tag: 0x25, data: [1, 2])],
      streams: [
        .init(streamType: 0x1B, pid: 0x100, descriptors: [.init(tag: 0x0F, data: Array("xxxx".utf8))]),
        .init(streamType: 0x0F, pid: 0x101, descriptors: [language, .init(tag: 0x05, data: Array("ABCD".utf8))]),
        id3,
      ])
    let pmt = try SampleAESSignalling(audioSetup: [0x101: .aac(audioSpecificConfig: [0x11, 0x90])]).encrypted(clear)
    #expect(pmt.programDescriptors == clear.programDescriptors)
    #expect(pmt.streams[0].descriptors == [.init(tag: 0x0F, data: Array("zavc".utf8))])
    #expect(pmt.streams[1].descriptors.map(\.tag) == [0x0F, 0x05, 0x0A])
    #expect(pmt.streams[1].descriptors.last == language)
    #expect(pmt.streams[2] == id3)
    // Applying it twice changes nothing more.
    #expect(
      try SampleAESSignalling(audioSetup: [0x101: .aac(audioSpecificConfig: [0x11, 0x90])]).encrypted(pmt) == pmt)
  }

  @Test func streamsThatCannotBeSignalledAreRefused() throws {
    let hevc = PMTSection(programNumber: 1, pcrPID: 0x100, streams: [.init(streamType: 0x24, pid: 0x100)])
    #expect(throws: TransportStreamError.unsupportedStreamType(pid: 0x100, streamType: 0x24)) {
      try SampleAESSignalling().encrypted(hevc)
    }
    #expect(throws: TransportStreamError.missingAudioSetup(pid: 0x50, streamType: 0x0F)) {
      try SampleAESSignalling().encrypted(L4.clearPMT(streamType: 0x0F))
    }
    let wrongCodec = SampleAESSignalling(audioSetup: [0x50: .eac3(dec3: [0, 0, 0])])
    #expect(throws: TransportStreamError.audioSetupMismatch(pid: 0x50, streamType: 0x0F, audioType: "zec3")) {
      try wrongCodec.encrypted(L4.clearPMT(streamType: 0x0F))
    }
  }
}
