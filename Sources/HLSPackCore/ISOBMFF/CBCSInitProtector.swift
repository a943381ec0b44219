/// Rewrites an fMP4 initialization segment for SAMPLE-AES `cbcs`
/// (ISO/IEC 23001-7; RFC 8216bis §3.1.2): every `avc1`/`hvc1` sample entry becomes
/// `encv`, every `mp4a`/`ac-3`/`ec-3` entry `enca`, each with a `sinf` appended:
/// `frma` (the original format, so `hvc1` stays `hvc1`), `schm` (`cbcs`,
/// version 0x00010000) and `schi`/`tenc` version 1 (video 1:9, audio 0:0,
/// protected, no per-sample IV, the key id and the 16-byte constant IV).
/// Every enclosing box grows by the same amount; `iso6` is added to the
/// compatible brands when missing. Nothing else changes, and no `pssh` is
/// written: identity keys and FairPlay deliver keys through the playlist.
public struct CBCSInitProtector: Sendable {
  public let keyID: [UInt8]
  public let constantIV: [UInt8]

  public init(keyID: [UInt8], constantIV: [UInt8]) throws {
    guard keyID.count == 16 else {
      throw MediaFormatError.invalidKeying("the key id is \(keyID.count) bytes, expected 16")
    }
    guard constantIV.count == 16 else {
      throw MediaFormatError.invalidKeying("the constant IV is \(constantIV.count) bytes, expected 16")
    }
    self.keyID = keyID
    self.constantIV = constantIV
  }

  public func protect(_ initSegment: [UInt8]) throws -> [UInt8] {
    let layout = try InitSegmentLayout(initSegment)
    var out = initSegment
    var insertions: [ISOBox.Insertion] = []
    if !compatibleBrands(initSegment, layout.ftyp).contains("iso6") {
      insertions.append(.init(offset: layout.ftyp.end, bytes: Array("iso6".utf8), enclosing: [layout.ftyp]))
    }
    for track in layout.tracks {
      for entry in track.entries {
        let video = track.kind != .audio
        out.replaceSubrange((entry.box.start + 4)..<(entry.box.start + 8), with: (video ? "encv" : "enca").utf8)
        let sinf = Self.sinf(
          format: entry.format, pattern: video ? .video : .audio, keyID: keyID, constantIV: constantIV)
        insertions.append(.init(offset: entry.box.end, bytes: sinf, enclosing: track.ancestors + [entry.box]))
      }
    }
    return try ISOBox.inserting(insertions, into: out)
  }

  /// `sinf` for one sample entry of original format `format`.
  static func sinf(format: String, pattern: CBCSPattern, keyID: [UInt8], constantIV: [UInt8]) -> [UInt8] {
    var frma = BoxWriter()
    frma.fourCC(format)
    var schm = BoxWriter()
    schm.versionAndFlags(0, 0)
    schm.fourCC("cbcs")
    schm.u32(0x0001_0000)
    var tenc = BoxWriter()
    tenc.versionAndFlags(1, 0)
    tenc.u8(0)  // reserved
    tenc.u8(pattern.tencByte)
    tenc.u8(1)  // default_isProtected
    tenc.u8(0)  // default_Per_Sample_IV_Size: constant IV
    tenc.append(keyID)
    tenc.u8(UInt8(constantIV.count))
    tenc.append(constantIV)
    let schi = BoxWriter.box("schi", BoxWriter.box("tenc", tenc.bytes))
    return BoxWriter.box("sinf", BoxWriter.box("frma", frma.bytes) + BoxWriter.box("schm", schm.bytes) + schi)
  }

  private func compatibleBrands(_ bytes: [UInt8], _ ftyp: ISOBox) -> [String] {
    stride(from: ftyp.payload + 8, to: ftyp.end - 3, by: 4).map { ISOBox.fourCC(bytes, $0) }
  }
}
