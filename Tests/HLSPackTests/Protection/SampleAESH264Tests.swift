import HLSPackCore
import HLSPackCrypto
import HLSPackTestSupport
import Testing

@testable import HLSPack

private typealias Ref = SampleAESReference

@Suite struct SampleAESH264Tests {
  let key: [UInt8] = Array(0x10..<0x20)
  let iv: [UInt8] = Array(0xA0..<0xB0)

  private let four: [UInt8] = [0, 0, 0, 1]
  private let three: [UInt8] = [0, 0, 1]

  /// A NAL unit of exactly `length` bytes whose body holds no zero byte, so
  /// that the input needs no emulation prevention.
  private func slice(type: UInt8, length: Int, seed: UInt64) -> [UInt8] {
    var rng = SplitMix64(seed: seed)
    return [0x60 | type] + rng.bytes(length - 1, in: 4...255)
  }

  private func encrypt(_ au: [UInt8]) throws -> [UInt8] {
    try H264SampleEncryptor(key: key).encrypt(accessUnit: au, iv: iv)
  }

  /// The encrypted NAL unit of a one-NAL access unit, one escape layer removed.
  private func encryptedBody(_ nal: [UInt8]) throws -> [UInt8] {
    let out = try encrypt(four + nal)
    #expect(Array(out.prefix(4)) == four)
    let escaped = Array(out.dropFirst(4))
    #expect(!Ref.hasForbiddenPattern(escaped))
    return EmulationPrevention.removed(escaped)
  }

  // MARK: The worked example's map

  @Test(arguments: [
    (48, [Int]()), (49, [32]), (208, [32]), (209, [32, 192]), (368, [32, 192]), (400, [32, 192, 352]),
    (528, [32, 192, 352]), (529, [32, 192, 352, 512]),
  ])
  func onlyThePredictedBlocksChange(length: Int, blocks: [Int]) throws {
    let clear = slice(type: 5, length: length, seed: UInt64(length))
    let body = try encryptedBody(clear)
    try #require(body.count == length)
    let inBlock = { (i: Int) in blocks.contains { $0 <= i && i < $0 + 16 } }
    let changed = (0..<length).filter { body[$0] != clear[$0] }
    #expect(changed.allSatisfy(inBlock), "bytes changed outside the blocks: \(changed.filter { !inBlock($0) })")
    for offset in blocks {
      #expect(body[offset..<offset + 16] != clear[offset..<offset + 16], "block at \(offset) is still clear")
    }
    // The last byte is always clear, so the NAL unit never ends in an encrypted byte.
    #expect(body.last == clear.last)
  }

  @Test(arguments: [209, 400, 529, 1000])
  func blocksChainWithinANALUnit(length: Int) throws {
    let clear = slice(type: 1, length: length, seed: 7)
    let body = try encryptedBody(clear)
    let offsets = Ref.videoBlockOffsets(nalLength: length)
    let expected = try AES128CBC().encryptBlocks(offsets.flatMap { clear[$0..<$0 + 16] }, key: key, iv: iv)
    #expect(offsets.flatMap { body[$0..<$0 + 16] } == expected)
  }

  /// docs/conformance.md, SAMPLE-AES in MPEG-TS: an IV reset per block is a misreading; it must not decrypt.
  @Test func aPerBlockIVResetDoesNotDecrypt() throws {
    let clear = slice(type: 5, length: 400, seed: 3)
    let body = try encryptedBody(clear)
    let cbc = try AES128CBC()
    let perBlock = try [32, 192, 352].map { try cbc.decryptBlocks(Array(body[$0..<$0 + 16]), key: key, iv: iv) }
    #expect(perBlock[0] == Array(clear[32..<48]))
    #expect(perBlock[1] != Array(clear[192..<208]))
    #expect(perBlock[2] != Array(clear[352..<368]))
  }

  @Test func eachNALUnitRestartsFromTheIV() throws {
    let idr = slice(type: 5, length: 300, seed: 11)
    let out = try encrypt(four + idr + three + idr)
    let units = Ref.split(out).units
    try #require(units.count == 2)
    #expect(units[0].nal == units[1].nal)
    #expect(units[0].nal != idr)
  }

  // MARK: Emulation prevention

  /// Escaped input (00 00 03 in the clear runs) is encrypted as it stands and
  /// escaped once more: 00 00 03 becomes 00 00 03 03.
  @Test func existingEscapesAreEscapedAgain() throws {
    var nal = slice(type: 5, length: 200, seed: 5)
    nal.replaceSubrange(10..<14, with: [0, 0, 3, 1])
    nal.replaceSubrange(60..<64, with: [0, 0, 3, 0])
    let out = try encrypt(four + nal)
    let escaped = Array(out.dropFirst(4))
    #expect(Array(escaped[10..<15]) == [0, 0, 3, 3, 1])
    #expect(!Ref.hasForbiddenPattern(escaped))
    #expect(EmulationPrevention.removed(escaped).count == nal.count)
    #expect(try Ref.decryptAccessUnit(out, key: key, iv: iv) == four + nal)
    #expect(try H264SampleDecryptor(key: key).decrypt(accessUnit: out, iv: iv) == four + nal)
  }

  /// Zeros produced by the cipher are escaped too, including a zero run that
  /// runs from an encrypted block into the clear byte after it.
  @Test func zerosInTheCiphertextAreEscaped() throws {
    let wanted: [UInt8] = [0, 0, 0, 1, 0, 0, 2, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF, 0x11, 0, 0]
    // CBC decryption under the same IV gives the plaintext that encrypts to `wanted`.
    let plain = try AES128CBC().decryptBlocks(wanted, key: key, iv: iv)
    var nal = slice(type: 5, length: 60, seed: 9)
    nal.replaceSubrange(32..<48, with: plain)
    nal[48] = 0x01
    // The crafted plaintext must not fake a start code in the clear input.
    try #require(!Ref.hasForbiddenPattern(nal))
    let escaped = Array(try encrypt(four + nal).dropFirst(4))
    #expect(Array(escaped[0..<32]) == Array(nal[0..<32]))
    #expect(
      Array(escaped[32..<52]) == [0, 0, 3, 0, 1, 0, 0, 3, 2, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF, 0x11, 0, 0, 3, 1])
    #expect(Array(escaped[52...]) == Array(nal[49...]))
    #expect(!Ref.hasForbiddenPattern(escaped))
    #expect(try H264SampleDecryptor(key: key).decrypt(accessUnit: four + escaped, iv: iv) == four + nal)
    #expect(try Ref.decryptAccessUnit(four + escaped, key: key, iv: iv) == four + nal)
  }

  // MARK: What stays clear

  @Test func nonSliceAndShortNALUnitsAndStartCodesAreUntouched() throws {
    let aud: [UInt8] = [0x09, 0xF0]
    let sps = slice(type: 7, length: 60, seed: 1)
    let pps: [UInt8] = [0x68, 0xEE, 0x3C, 0x80]
    let sei = slice(type: 6, length: 120, seed: 2)
    let idr = slice(type: 5, length: 400, seed: 4)
    let shortSlice = slice(type: 1, length: 48, seed: 6)
    let partition = slice(type: 2, length: 100, seed: 8)
    let filler = slice(type: 12, length: 80, seed: 10)
    let au =
      four + aud + four + sps + three + pps + three + sei + three + idr + three + shortSlice + three
      + partition + three + filler
    let out = try encrypt(au)
    let clearUnits = Ref.split(au).units
    let units = Ref.split(out).units
    try #require(units.count == clearUnits.count)
    #expect(units.map(\.prefix) == clearUnits.map(\.prefix))
    for (n, unit) in units.enumerated() where n != 4 {
      #expect(unit.nal == clearUnits[n].nal, "NAL unit \(n) (type \(clearUnits[n].nal[0] & 0x1F)) changed")
    }
    #expect(units[4].nal != idr)
    #expect(try Ref.decryptAccessUnit(out, key: key, iv: iv) == au)
  }

  @Test func trailingZerosAndStartCodeLengthsSurvive() throws {
    let a = slice(type: 1, length: 100, seed: 12)
    let b = slice(type: 5, length: 100, seed: 13)
    // A leading zero_byte, a 3-byte code, trailing_zero_8bits before a 4-byte code, zeros at the end.
    let au = [0] + three + a + [0, 0] + four + b + [0, 0]
    let out = try encrypt(au)
    let (units, trailer) = Ref.split(out)
    #expect(units.map(\.prefix) == [[0, 0, 0, 1], [0, 0, 0, 0, 0, 1]])
    #expect(trailer == [0, 0])
    #expect(try H264SampleDecryptor(key: key).decrypt(accessUnit: out, iv: iv) == au)
  }

  // MARK: Refusals

  @Test func anAccessUnitWithoutAStartCodeIsRefused() throws {
    let encryptor = try H264SampleEncryptor(key: key)
    #expect(throws: FramingError.missingStartCode) { try encryptor.encrypt(accessUnit: [0x65, 1, 2, 3], iv: iv) }
    #expect(throws: FramingError.missingStartCode) {
      try encryptor.encrypt(accessUnit: [0xFF] + three + slice(type: 5, length: 60, seed: 1), iv: iv)
    }
    #expect(try encryptor.encrypt(accessUnit: [], iv: iv) == [])
  }

  @Test func wrongKeyOrIVSizesAreRefused() throws {
    #expect(throws: SampleAESError.keyLength(15)) { try H264SampleEncryptor(key: Array(key.prefix(15))) }
    #expect(throws: SampleAESError.keyLength(17)) { try H264SampleDecryptor(key: key + [0]) }
    #expect(throws: SampleAESError.ivLength(8)) {
      try H264SampleEncryptor(key: key).encrypt(accessUnit: four + [0x09, 0xF0], iv: Array(iv.prefix(8)))
    }
  }

  // MARK: Round trips

  /// A valid escaped NAL unit from random RBSP bytes, a quarter of them zero.
  private func randomNAL(_ rng: inout SplitMix64) -> [UInt8] {
    let types: [UInt8] = [1, 1, 1, 5, 5, 6, 7, 8, 9]
    let type = types[Int.random(in: 0..<types.count, using: &rng)]
    let length = Int.random(in: 0...800, using: &rng)
    let rbsp = (0..<length).map { _ in
      Bool.random(using: &rng) && Bool.random(using: &rng) ? 0 : UInt8.random(in: 0...255, using: &rng)
    }
    // rbsp_stop_one_bit: a NAL unit never ends in 0x00.
    return EmulationPrevention.inserted([0x40 | type] + rbsp + [0x80])
  }

  @Test func randomAccessUnitsRoundTrip() throws {
    var rng = SplitMix64(seed: 0x5A3E_2026)
    let encryptor = try H264SampleEncryptor(key: key)
    let decryptor = try H264SampleDecryptor(key: key)
    var encryptedNALs = 0
    for _ in 0..<300 {
      let nals = (0..<Int.random(in: 1...5, using: &rng)).map { _ in randomNAL(&rng) }
      let au = nals.enumerated().flatMap { n, nal in (n == 0 || Bool.random(using: &rng) ? four : three) + nal }
      let out = try encryptor.encrypt(accessUnit: au, iv: iv)
      #expect(try decryptor.decrypt(accessUnit: out, iv: iv) == au)
      #expect(try Ref.decryptAccessUnit(out, key: key, iv: iv) == au)
      let units = Ref.split(out).units
      #expect(units.count == nals.count)
      for (unit, clear) in zip(units, nals) where Ref.isEncryptedSlice(clear) {
        encryptedNALs += 1
        #expect(!Ref.hasForbiddenPattern(unit.nal))
        #expect(EmulationPrevention.removed(unit.nal).count == clear.count)
      }
    }
    #expect(encryptedNALs > 200)
  }

  @Test func bufferAndArrayEntryPointsAgree() throws {
    let au = four + slice(type: 5, length: 500, seed: 21) + three + slice(type: 1, length: 90, seed: 22)
    let encryptor = try H264SampleEncryptor(key: key)
    let fromArray = try encryptor.encrypt(accessUnit: au, iv: iv)
    let fromBuffer = try au.withUnsafeBufferPointer { try encryptor.encrypt(accessUnit: $0, iv: iv) }
    #expect(fromArray == fromBuffer)
    let decryptor = try H264SampleDecryptor(key: key)
    #expect(try fromArray.withUnsafeBufferPointer { try decryptor.decrypt(accessUnit: $0, iv: iv) } == au)
  }
}
