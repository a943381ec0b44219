import HLSPackCore

/// What an fMP4 initialization section says that its rendition's segments
/// are checked against: per track its timescale, trex defaults, codec,
/// parameter sets and `cbcs` protection (ISO/IEC 14496-12 §8.4.2, §8.8.3;
/// ISO/IEC 23001-7 §8.2 `tenc`).
public struct FragmentedInitSection {
  struct Protection {
    var pattern: CBCSPattern
    var perSampleIVSize: Int
    var constantIV: [UInt8]
  }

  struct Track {
    var id: UInt32
    var kind: InitSegmentLayout.Kind
    var timescale: Int64
    var defaultDuration: UInt32?
    var defaultFlags: UInt32?
    var defaultSize: UInt32?
    var configuration: DecoderConfiguration?
    var protection: Protection?
    var codec: String?
    var picture: SPSPicture?
    /// An av01 entry's sequence header, from its av1C's configOBUs.
    var av1SequenceHeader: AV1SequenceHeader?
    /// An AAC track's AudioSpecificConfig, from its esds.
    var audioConfig: [UInt8]?
    /// An encv/enca entry, of any scheme: its samples are not clear.
    var encrypted = false
    /// A video entry's Dolby Vision configuration (`dvcC`, `dvvC` or `dvwC`).
    var dolbyVision: DolbyVisionConfiguration?
  }

  var tracks: [UInt32: Track] = [:]
  /// Tracks whose stsd does not hold exactly one sample entry (Apple HLS
  /// Authoring Specification §3: one sample description per init).
  public var sampleDescriptionProblem: String?

  public init(_ bytes: [UInt8]) throws {
    let layout = try InitSegmentLayout(bytes, acceptProtected: true)
    let moovChildren = try ISOBox.children(of: bytes, in: layout.moov.payloadRange, context: "moov")
    var trex: [UInt32: (duration: UInt32, flags: UInt32)] = [:]
    for mvex in moovChildren where mvex.type == "mvex" {
      for box in try ISOBox.children(of: bytes, in: mvex.payloadRange, context: "mvex")
      where box.type == "trex" && box.end - box.payload >= 24 {
        trex[BigEndian.u32(bytes, box.payload + 4)] = (
          BigEndian.u32(bytes, box.payload + 12), BigEndian.u32(bytes, box.payload + 20)
        )
      }
    }
    let traks = moovChildren.filter { $0.type == "trak" }
    for (layoutTrack, trak) in zip(layout.tracks, traks) {
      guard let entry = layoutTrack.entries.first else { continue }
      if layoutTrack.entries.count != 1 {
        sampleDescriptionProblem =
          "track \(layoutTrack.id): stsd holds \(layoutTrack.entries.count) sample entries \(layoutTrack.entries.map(\.format))"
      }
      var track = Track(
        id: layoutTrack.id, kind: layoutTrack.kind, timescale: try Self.timescale(bytes, trak),
        defaultDuration: trex[layoutTrack.id]?.duration, defaultFlags: trex[layoutTrack.id]?.flags,
        defaultSize: layoutTrack.trexDefaultSampleSize)
      switch layoutTrack.kind {
      case .h264:
        track.configuration = try .avc(entry.configuration)
        track.codec = CodecString.avc1(configurationRecord: entry.configuration)
      case .hevc:
        track.configuration = try .hevc(entry.configuration)
        track.codec = CodecString.hvc1(configurationRecord: entry.configuration)
        track.dolbyVision = try Self.dolbyVision(bytes, entry.box, childrenStart: entry.childrenStart)
      case .av1:
        let configuration = try AV1CodecConfiguration(entry.configuration)
        track.av1SequenceHeader = configuration.sequenceHeader
        track.codec = configuration.sequenceHeader?.codecString ?? configuration.codecString
      case .audio:
        (track.codec, track.audioConfig) = try Self.audioCodec(bytes, entry.box, entry.format, entry.childrenStart)
      }
      if let sets = track.configuration?.parameterSets {
        track.picture = SPSPicture.firstSPS(in: sets.map { $0[...] }, hevc: layoutTrack.kind == .hevc)
      }
      track.protection = try Self.protection(bytes, entry.box, childrenStart: entry.childrenStart)
      track.encrypted = entry.box.type == "encv" || entry.box.type == "enca"
      tracks[track.id] = track
    }
  }

  /// mdhd's timescale (§8.4.2): after version/flags and two times of 32 or 64 bits.
  private static func timescale(_ bytes: [UInt8], _ trak: ISOBox) throws -> Int64 {
    let mdia = try ISOBox.single(
      "mdia", in: try ISOBox.children(of: bytes, in: trak.payloadRange, context: "trak"), context: "trak")
    let mdhd = try ISOBox.single(
      "mdhd", in: try ISOBox.children(of: bytes, in: mdia.payloadRange, context: "mdia"), context: "mdia")
    let offset = mdhd.payload + (bytes[mdhd.payload] == 1 ? 20 : 12)
    guard offset + 4 <= mdhd.end else { throw MediaFormatError.malformedBox("mdhd is \(mdhd.size) bytes") }
    return Int64(BigEndian.u32(bytes, offset))
  }

  /// The codec string of an audio entry (or of an enca's original format):
  /// an mp4a's from its esds (ISO/IEC 14496-14 §5.6), with the
  /// AudioSpecificConfig; AC-3 and E-AC-3 by their configuration box, dac3
  /// or dec3 (ETSI TS 102 366 §F.4, §F.6), else by the format. nil: unknown.
  private static func audioCodec(
    _ bytes: [UInt8], _ entry: ISOBox, _ format: String, _ childrenStart: Int
  ) throws -> (String?, [UInt8]?) {
    let children = try ISOBox.children(of: bytes, in: childrenStart..<entry.end, context: entry.type)
    if format == "mp4a" {
      guard let esds = children.first(where: { $0.type == "esds" }) else { return (nil, nil) }
      let payload = bytes[esds.payloadRange]
      return (
        ElementaryStreamDescriptor.codecString(esds: payload),
        ElementaryStreamDescriptor.decoderSpecificInfo(esds: payload).map(Array.init)
      )
    }
    if children.contains(where: { $0.type == "dec3" }) { return ("ec-3", nil) }
    if children.contains(where: { $0.type == "dac3" }) { return ("ac-3", nil) }
    return (["ac-3": "ac-3", "ec-3": "ec-3"][format], nil)
  }

  /// The Dolby Vision configuration box among a video sample entry's children, if any.
  private static func dolbyVision(_ bytes: [UInt8], _ entry: ISOBox, childrenStart: Int) throws
    -> DolbyVisionConfiguration?
  {
    let children = try ISOBox.children(of: bytes, in: childrenStart..<entry.end, context: entry.type)
    guard let box = children.first(where: { ["dvcC", "dvvC", "dvwC"].contains($0.type) }) else { return nil }
    guard let configuration = DolbyVisionConfiguration(record: bytes[box.payloadRange]) else {
      throw MediaFormatError.malformedBox("\(box.type) is \(box.size) bytes")
    }
    return configuration
  }

  /// The `cbcs` tenc of an encv/enca entry; nil for a clear entry or another scheme.
  private static func protection(_ bytes: [UInt8], _ entry: ISOBox, childrenStart: Int) throws -> Protection? {
    guard entry.type == "encv" || entry.type == "enca" else { return nil }
    let children = try ISOBox.children(of: bytes, in: childrenStart..<entry.end, context: entry.type)
    let sinf = try ISOBox.single("sinf", in: children, context: entry.type)
    let sinfChildren = try ISOBox.children(of: bytes, in: sinf.payloadRange, context: "sinf")
    guard let schm = sinfChildren.first(where: { $0.type == "schm" }), schm.payload + 8 <= schm.end,
      ISOBox.fourCC(bytes, schm.payload + 4) == "cbcs"
    else { return nil }
    let schi = try ISOBox.single("schi", in: sinfChildren, context: "sinf")
    let tenc = try ISOBox.single(
      "tenc", in: try ISOBox.children(of: bytes, in: schi.payloadRange, context: "schi"), context: "schi")
    // version/flags, reserved, pattern (version 1), isProtected, Per_Sample_IV_Size, KID.
    let p = tenc.payload
    guard p + 24 <= tenc.end else { throw MediaFormatError.malformedBox("tenc is \(tenc.size) bytes") }
    let patternByte = bytes[p] >= 1 ? bytes[p + 5] : 0
    let pattern = CBCSPattern(cryptBlocks: Int(patternByte >> 4), skipBlocks: Int(patternByte & 0x0F))
    let ivSize = Int(bytes[p + 7])
    var constantIV: [UInt8] = []
    if ivSize == 0, p + 25 <= tenc.end {
      let size = Int(bytes[p + 24])
      guard p + 25 + size <= tenc.end else {
        throw MediaFormatError.malformedBox("tenc's constant IV runs past the box")
      }
      constantIV = Array(bytes[(p + 25)..<(p + 25 + size)])
    }
    return Protection(pattern: pattern, perSampleIVSize: ivSize, constantIV: constantIV)
  }
}
