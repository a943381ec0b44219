import HLSPackCore
import HLSPackCrypto
import HLSPackTestSupport
import Testing

@testable import HLSPack

private typealias Ref = SampleAESReference

/// An ADTS header (MPEG-4, AAC-LC, 44.1 kHz, stereo) for a frame of
/// `frameLength` bytes; with `crc` protection_absent is 0 and two CRC bytes follow.
private func adtsHeader(frameLength: Int, crc: Bool) -> [UInt8] {
  let length = UInt16(frameLength)
  var header: [UInt8] = [
    0xFF, crc ? 0xF0 : 0xF1,
    0x50 | 0x00,  // profile LC (1), sampling_frequency_index 4, private 0, channel_configuration high bit 0
    0x80 | UInt8(length >> 11 & 0x03),  // channel_configuration 2, frame_length bits 12–11
    UInt8(length >> 3 & 0xFF),
    UInt8(length & 0x07) << 5 | 0x1F,  // buffer fullness 0x7FF (VBR)
    0xFC,  // number_of_raw_data_blocks_in_frame 0
  ]
  if crc { header += [0x12, 0x34] }
  return header
}

/// An AC-3 syncframe of `size` bytes with the given fscod/frmsizecod, bsid 8.
private func ac3Frame(fscod: UInt8, frmsizecod: UInt8, size: Int, bsid: UInt8 = 8, seed: UInt64) -> [UInt8] {
  var rng = SplitMix64(seed: seed)
  // Filler never holds 0x0B, so a wrong frame size cannot find a syncword by luck.
  return [0x0B, 0x77, 0xAB, 0xCD, fscod << 6 | frmsizecod, bsid << 3 | 0x00]
    + rng.bytes(size - 6, in: 0x0C...0xFF)
}

@Suite struct SampleAESAudioTests {
  let key: [UInt8] = Array(0x30..<0x40)
  let iv: [UInt8] = Array(0x50..<0x60)

  /// Checks that exactly `range` changed, that it holds one CBC chain from the
  /// IV over the clear bytes, and that the reference decryptor restores them.
  private func expectEncrypted(
    _ out: [UInt8], clear: [UInt8], range: Range<Int>, header: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try #require(out.count == clear.count, sourceLocation: sourceLocation)
    #expect(out[..<range.lowerBound] == clear[..<range.lowerBound], "leader changed", sourceLocation: sourceLocation)
    #expect(out[range.upperBound...] == clear[range.upperBound...], "tail changed", sourceLocation: sourceLocation)
    if !range.isEmpty {
      let chain = try AES128CBC().encryptBlocks(Array(clear[range]), key: key, iv: iv)
      #expect(Array(out[range]) == chain, sourceLocation: sourceLocation)
    }
    #expect(try Ref.decryptAudioFrame(out, header: header, key: key, iv: iv) == clear, sourceLocation: sourceLocation)
  }

  // MARK: AAC

  /// docs/conformance.md, SAMPLE-AES in MPEG-TS: raw frames, leader = raw bytes 0–15.
  @Test(arguments: [(16, 16..<16), (31, 16..<16), (32, 16..<32), (47, 16..<32), (48, 16..<48), (364, 16..<352)])
  func rawAAC(size: Int, encrypted: Range<Int>) throws {
    var rng = SplitMix64(seed: UInt64(size))
    let clear = rng.bytes(size)
    let out = try AACSampleEncryptor(key: key).encrypt(rawFrame: clear, iv: iv)
    try expectEncrypted(out, clear: clear, range: encrypted, header: 0)
    #expect(try AACSampleDecryptor(key: key).decrypt(rawFrame: out, iv: iv) == clear)
  }

  /// Payload sizes 31, 32, 47, 48 behind a 7-byte and a 9-byte header (Apple MPEG-2 Stream Encryption §2.3.2).
  @Test(arguments: [false, true], [(31, 0), (32, 1), (47, 1), (48, 2)])
  func adtsPayloadSizes(crc: Bool, sizes: (payload: Int, blocks: Int)) throws {
    let header = crc ? 9 : 7
    var rng = SplitMix64(seed: UInt64(sizes.payload))
    let clear = adtsHeader(frameLength: header + sizes.payload, crc: crc) + rng.bytes(sizes.payload)
    let out = try AACSampleEncryptor(key: key).encrypt(adtsFrames: clear, iv: iv)
    try expectEncrypted(out, clear: clear, range: header + 16..<header + 16 + 16 * sizes.blocks, header: header)
    #expect(try AACSampleDecryptor(key: key).decrypt(adtsFrames: out, iv: iv) == clear)
  }

  /// docs/conformance.md, Worked examples: frame_length 371 → [23,359) with a 7-byte header, [25,361) with CRC.
  @Test(arguments: [(false, 23..<359, 12), (true, 25..<361, 10)])
  func workedExampleK4(crc: Bool, encrypted: Range<Int>, tail: Int) throws {
    var rng = SplitMix64(seed: 371)
    let header = adtsHeader(frameLength: 371, crc: crc)
    let clear = header + rng.bytes(371 - header.count)
    let out = try AACSampleEncryptor(key: key).encrypt(adtsFrames: clear, iv: iv)
    #expect(371 - encrypted.upperBound == tail)
    #expect(encrypted.count == 21 * 16)
    try expectEncrypted(out, clear: clear, range: encrypted, header: header.count)
  }

  /// Encrypting raw and then adding the header equals encrypting the ADTS frame
  /// (docs/conformance.md, SAMPLE-AES in MPEG-TS).
  @Test(arguments: [false, true])
  func rawThenHeaderEqualsADTS(crc: Bool) throws {
    var rng = SplitMix64(seed: 99)
    let raw = rng.bytes(364)
    let header = adtsHeader(frameLength: 364 + (crc ? 9 : 7), crc: crc)
    let encryptor = try AACSampleEncryptor(key: key)
    #expect(
      try header + encryptor.encrypt(rawFrame: raw, iv: iv) == encryptor.encrypt(adtsFrames: header + raw, iv: iv))
  }

  /// Apple MPEG-2 Stream Encryption §2.3: every frame of a multi-frame buffer restarts from the IV.
  @Test func eachADTSFrameRestartsFromTheIV() throws {
    var rng = SplitMix64(seed: 5)
    let frames = [(371, false), (38, false), (200, true)].map { length, crc in
      let header = adtsHeader(frameLength: length, crc: crc)
      return header + rng.bytes(length - header.count)
    }
    let encryptor = try AACSampleEncryptor(key: key)
    let together = try encryptor.encrypt(adtsFrames: frames.flatMap { $0 }, iv: iv)
    let alone = try frames.flatMap { try encryptor.encrypt(adtsFrames: $0, iv: iv) }
    #expect(together == alone)
    #expect(try AACSampleDecryptor(key: key).decrypt(adtsFrames: together, iv: iv) == frames.flatMap { $0 })
  }

  @Test func inPlaceEntryPointsMatch() throws {
    var rng = SplitMix64(seed: 6)
    let clear = adtsHeader(frameLength: 300, crc: false) + rng.bytes(293)
    let encryptor = try AACSampleEncryptor(key: key)
    var buffer = clear
    try buffer.withUnsafeMutableBufferPointer { try encryptor.encryptInPlace(adtsFrames: $0, iv: iv) }
    #expect(buffer == (try encryptor.encrypt(adtsFrames: clear, iv: iv)))
    try buffer.withUnsafeMutableBufferPointer {
      try AACSampleDecryptor(key: key).decryptInPlace(adtsFrames: $0, iv: iv)
    }
    #expect(buffer == clear)
    var raw = Array(clear.dropFirst(7))
    try raw.withUnsafeMutableBufferPointer { try encryptor.encryptInPlace(rawFrame: $0, iv: iv) }
    #expect(raw == (try encryptor.encrypt(rawFrame: Array(clear.dropFirst(7)), iv: iv)))
  }

  @Test func malformedADTSIsRefused() throws {
    let encryptor = try AACSampleEncryptor(key: key)
    let good = adtsHeader(frameLength: 100, crc: false) + [UInt8](repeating: 0x55, count: 93)
    // No syncword.
    #expect(throws: FramingError.self) { try encryptor.encrypt(adtsFrames: [0x12] + good.dropFirst(), iv: iv) }
    // frame_length past the end.
    #expect(throws: FramingError.self) { try encryptor.encrypt(adtsFrames: Array(good.dropLast()), iv: iv) }
    // frame_length shorter than the header.
    #expect(throws: FramingError.self) {
      try encryptor.encrypt(adtsFrames: adtsHeader(frameLength: 8, crc: true) + [0, 0], iv: iv)
    }
    // A few bytes after the last frame.
    #expect(throws: FramingError.self) { try encryptor.encrypt(adtsFrames: good + [0xFF, 0xF1], iv: iv) }
  }

  // MARK: AC-3

  /// docs/conformance.md, Worked examples: 48 kHz, 192 kbit/s, 768 bytes → [16,768) = 47 blocks, no tail.
  @Test func ac3Frame768() throws {
    let clear = ac3Frame(fscod: 0, frmsizecod: 20, size: 768, seed: 1)
    let out = try AC3SampleEncryptor(key: key).encrypt(syncFrames: clear, iv: iv)
    try expectEncrypted(out, clear: clear, range: 16..<768, header: 0)
    #expect(try AC3SampleDecryptor(key: key).decrypt(syncFrames: out, iv: iv) == clear)
  }

  /// Frame sizes from A/52 Table 5.18: two frames back to back split where the table says.
  @Test(arguments: [
    (UInt8(0), UInt8(0), 128), (0, 37, 2560), (1, 0, 138), (1, 1, 140), (1, 21, 836), (1, 37, 2788), (2, 0, 192),
    (2, 37, 3840),
  ])
  func ac3FrameSizes(fscod: UInt8, frmsizecod: UInt8, size: Int) throws {
    let frames = [
      ac3Frame(fscod: fscod, frmsizecod: frmsizecod, size: size, seed: 1),
      ac3Frame(fscod: fscod, frmsizecod: frmsizecod, size: size, seed: 2),
    ]
    let encryptor = try AC3SampleEncryptor(key: key)
    let together = try encryptor.encrypt(syncFrames: frames[0] + frames[1], iv: iv)
    // Each syncframe restarts from the IV, so the pair equals the frames encrypted alone.
    #expect(
      together
        == (try encryptor.encrypt(syncFrames: frames[0], iv: iv) + encryptor.encrypt(syncFrames: frames[1], iv: iv)))
    try expectEncrypted(
      Array(together[size...]), clear: frames[1], range: Ref.audioBlocks(frameLength: size, header: 0), header: 0)
    #expect(try AC3SampleDecryptor(key: key).decrypt(syncFrames: together, iv: iv) == frames[0] + frames[1])
  }

  @Test func ac3InPlace() throws {
    let clear = ac3Frame(fscod: 1, frmsizecod: 21, size: 836, seed: 3)
    var buffer = clear
    try buffer.withUnsafeMutableBufferPointer {
      try AC3SampleEncryptor(key: key).encryptInPlace(syncFrames: $0, iv: iv)
    }
    // 836 bytes: [16,832) encrypted, a 4-byte tail clear.
    try expectEncrypted(buffer, clear: clear, range: 16..<832, header: 0)
    try buffer.withUnsafeMutableBufferPointer {
      try AC3SampleDecryptor(key: key).decryptInPlace(syncFrames: $0, iv: iv)
    }
    #expect(buffer == clear)
  }

  @Test func malformedAC3IsRefused() throws {
    let encryptor = try AC3SampleEncryptor(key: key)
    let good = ac3Frame(fscod: 0, frmsizecod: 20, size: 768, seed: 4)
    var noSync = good
    noSync[1] = 0x78
    var reservedRate = good
    reservedRate[4] = 3 << 6 | 20
    var reservedSize = good
    reservedSize[4] = 38
    let eac3 = ac3Frame(fscod: 0, frmsizecod: 20, size: 768, bsid: 16, seed: 4)
    for bad in [noSync, reservedRate, reservedSize, eac3, Array(good.dropLast()), good + [0x0B, 0x77]] {
      #expect(throws: FramingError.self) { try encryptor.encrypt(syncFrames: bad, iv: iv) }
    }
  }
}
