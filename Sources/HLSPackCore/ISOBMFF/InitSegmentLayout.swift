/// The parts of an fMP4 initialization segment (ftyp + moov) that `cbcs`
/// protection reads and rewrites: per track its id, its sample entries with
/// their decoder configuration, the boxes that enclose them, and the trex
/// defaults that fragments fall back on.
package struct InitSegmentLayout {
  package enum Kind: Equatable {
    case h264
    case hevc
    /// AV1 (`av01` with `av1C`): read for `hlspack verify`; `cbcs` refuses it.
    case av1
    /// AAC (`mp4a`), AC-3 (`ac-3`) or E-AC-3 (`ec-3`): whole-sample encryption (ISO/IEC 23001-7).
    case audio
  }

  package struct SampleEntry {
    package var box: ISOBox
    /// The original format, e.g. "avc1".
    package var format: String
    /// Where the entry's child boxes begin (after the fixed visual or audio fields).
    package var childrenStart: Int
    /// The payload of avcC / hvcC / av1C (video only).
    package var configuration: [UInt8]
  }

  package struct Track {
    package var id: UInt32
    package var kind: Kind
    package var entries: [SampleEntry]
    /// moov, trak, mdia, minf, stbl, stsd: every box whose size grows with an entry.
    package var ancestors: [ISOBox]
    package var trexDefaultSampleSize: UInt32?
  }

  package var ftyp: ISOBox
  package var moov: ISOBox
  package var tracks: [Track]

  package static let videoFormats: [String: Kind] = ["avc1": .h264, "hvc1": .hevc, "av01": .av1]
  /// The decoder configuration box of each video kind's sample entry.
  static let configurationBoxes: [Kind: String] = [.h264: "avcC", .hevc: "hvcC", .av1: "av1C"]
  package static let audioFormats: Set<String> = ["mp4a", "ac-3", "ec-3"]

  /// `acceptProtected`: read `encv`/`enca` entries by their `frma` original
  /// format (for the fragment encryptor); the protector refuses them.
  package init(_ bytes: [UInt8], acceptProtected: Bool = false) throws {
    let top = try ISOBox.children(of: bytes, in: 0..<bytes.count, context: "init segment")
    // A free or skip box may follow: a single file's AES-128 alignment (`SingleFileLayout`).
    guard top.prefix(2).map(\.type) == ["ftyp", "moov"],
      top.dropFirst(2).allSatisfy({ ["free", "skip"].contains($0.type) }), let ftyp = top.first,
      let moov = top.dropFirst().first
    else {
      throw MediaFormatError.malformedBox("init segment: expected ftyp + moov, found \(top.map(\.type))")
    }
    self.ftyp = ftyp
    self.moov = moov
    let moovChildren = try ISOBox.children(of: bytes, in: moov.payloadRange, context: "moov")
    var trex: [UInt32: UInt32] = [:]
    if let mvex = moovChildren.first(where: { $0.type == "mvex" }) {
      for box in try ISOBox.children(of: bytes, in: mvex.payloadRange, context: "mvex") where box.type == "trex" {
        guard box.end - box.payload >= 24 else { throw MediaFormatError.malformedBox("trex is \(box.size) bytes") }
        trex[BigEndian.u32(bytes, box.payload + 4)] = BigEndian.u32(bytes, box.payload + 16)
      }
    } else {
      throw MediaFormatError.malformedBox("moov has no mvex: not a fragmented movie")
    }
    if moovChildren.contains(where: { $0.type == "pssh" }) {
      throw MediaFormatError.unsupportedBox("moov already carries a pssh box: the init segment is already protected")
    }
    tracks = try moovChildren.filter { $0.type == "trak" }.map { trak in
      var track = try Self.track(bytes, moov: moov, trak: trak, acceptProtected: acceptProtected)
      track.trexDefaultSampleSize = trex[track.id]
      return track
    }
    guard !tracks.isEmpty else { throw MediaFormatError.malformedBox("moov has no trak") }
  }

  private static func track(_ bytes: [UInt8], moov: ISOBox, trak: ISOBox, acceptProtected: Bool) throws -> Track {
    let trakChildren = try ISOBox.children(of: bytes, in: trak.payloadRange, context: "trak")
    let tkhd = try ISOBox.single("tkhd", in: trakChildren, context: "trak")
    guard tkhd.end - tkhd.payload >= 24 else { throw MediaFormatError.malformedBox("tkhd is \(tkhd.size) bytes") }
    // tkhd: version/flags, then two times (32 or 64 bit each), then track_ID.
    let idOffset = tkhd.payload + 4 + (bytes[tkhd.payload] == 1 ? 16 : 8)
    let id = BigEndian.u32(bytes, idOffset)
    let context = "track \(id)"
    let mdia = try ISOBox.single("mdia", in: trakChildren, context: context)
    let minf = try ISOBox.single(
      "minf", in: try ISOBox.children(of: bytes, in: mdia.payloadRange, context: "\(context) mdia"), context: context)
    let stbl = try ISOBox.single(
      "stbl", in: try ISOBox.children(of: bytes, in: minf.payloadRange, context: "\(context) minf"), context: context)
    let stblChildren = try ISOBox.children(of: bytes, in: stbl.payloadRange, context: "\(context) stbl")
    for table in stblChildren where ["stco", "co64", "stsz", "stz2"].contains(table.type) {
      // An init segment holds no samples; chunk offsets would move with the moov.
      let countOffset = table.payload + (table.type == "stsz" ? 8 : 4)
      guard countOffset + 4 <= table.end else {
        throw MediaFormatError.malformedBox("\(context): \(table.type) is \(table.size) bytes")
      }
      guard BigEndian.u32(bytes, countOffset) == 0 else {
        throw MediaFormatError.unsupportedBox(
          "\(context): \(table.type) lists samples; an fMP4 init segment must have none")
      }
    }
    let stsd = try ISOBox.single("stsd", in: stblChildren, context: context)
    guard stsd.end - stsd.payload >= 8 else {
      throw MediaFormatError.malformedBox("\(context): stsd is \(stsd.size) bytes")
    }
    let boxes = try ISOBox.children(of: bytes, in: (stsd.payload + 8)..<stsd.end, context: "\(context) stsd")
    guard boxes.count == Int(BigEndian.u32(bytes, stsd.payload + 4)), !boxes.isEmpty else {
      throw MediaFormatError.malformedBox("\(context): stsd entry_count does not match its \(boxes.count) entries")
    }
    var kinds: [Kind] = []
    var entries: [SampleEntry] = []
    for box in boxes {
      let (kind, entry) = try sampleEntry(bytes, box, context: context, acceptProtected: acceptProtected)
      kinds.append(kind)
      entries.append(entry)
    }
    guard let kind = kinds.first, kinds.allSatisfy({ $0 == kind }) else {
      throw MediaFormatError.unsupportedBox("\(context): sample entries of different codecs \(entries.map(\.format))")
    }
    return Track(
      id: id, kind: kind, entries: entries, ancestors: [moov, trak, mdia, minf, stbl, stsd], trexDefaultSampleSize: nil)
  }

  private static func sampleEntry(
    _ bytes: [UInt8], _ box: ISOBox, context: String, acceptProtected: Bool
  ) throws -> (Kind, SampleEntry) {
    var format = box.type
    if format == "encv" || format == "enca" {
      guard acceptProtected else {
        throw MediaFormatError.unsupportedBox("\(context): sample entry '\(format)' is already protected")
      }
      format = try originalFormat(bytes, box, video: format == "encv", context: context)
    }
    if let kind = videoFormats[format] {
      // VisualSampleEntry: 8 (SampleEntry) + 70 bytes of fixed fields (ISO 14496-12 §12.1.3).
      let childrenStart = box.payload + 78
      guard childrenStart <= box.end else {
        throw MediaFormatError.malformedBox("\(context): '\(format)' is \(box.size) bytes")
      }
      let children = try ISOBox.children(of: bytes, in: childrenStart..<box.end, context: "\(context) \(format)")
      let configType = configurationBoxes[kind] ?? "avcC"
      let config = try ISOBox.single(configType, in: children, context: "\(context) \(format)")
      if !acceptProtected, children.contains(where: { $0.type == "sinf" }) {
        throw MediaFormatError.unsupportedBox("\(context): '\(format)' already has a sinf box")
      }
      return (
        kind,
        SampleEntry(
          box: box, format: format, childrenStart: childrenStart, configuration: Array(bytes[config.payloadRange]))
      )
    }
    if audioFormats.contains(format) {
      let childrenStart = try audioChildrenStart(bytes, box, context: context)
      let children = try ISOBox.children(of: bytes, in: childrenStart..<box.end, context: "\(context) \(format)")
      if !acceptProtected, children.contains(where: { $0.type == "sinf" }) {
        throw MediaFormatError.unsupportedBox("\(context): '\(format)' already has a sinf box")
      }
      return (.audio, SampleEntry(box: box, format: format, childrenStart: childrenStart, configuration: []))
    }
    throw MediaFormatError.unsupportedBox(
      "\(context): sample entry '\(format)'; cbcs here covers avc1, hvc1 (parameter sets in the sample entry), mp4a, ac-3 and ec-3"
    )
  }

  /// The `frma` format inside an encv/enca entry's sinf.
  private static func originalFormat(_ bytes: [UInt8], _ box: ISOBox, video: Bool, context: String) throws -> String {
    let start = video ? box.payload + 78 : try audioChildrenStart(bytes, box, context: context)
    guard start <= box.end else {
      throw MediaFormatError.malformedBox("\(context): '\(box.type)' is \(box.size) bytes")
    }
    let children = try ISOBox.children(of: bytes, in: start..<box.end, context: "\(context) \(box.type)")
    let sinf = try ISOBox.single("sinf", in: children, context: "\(context) \(box.type)")
    let frma = try ISOBox.single(
      "frma", in: try ISOBox.children(of: bytes, in: sinf.payloadRange, context: "sinf"), context: "sinf")
    guard frma.end - frma.payload == 4 else {
      throw MediaFormatError.malformedBox("\(context): frma is \(frma.size) bytes")
    }
    return ISOBox.fourCC(bytes, frma.payload)
  }

  /// AudioSampleEntry: 8 (SampleEntry) + 20 bytes; QuickTime sound description
  /// versions 1 and 2 add 16 and 36 bytes.
  private static func audioChildrenStart(_ bytes: [UInt8], _ box: ISOBox, context: String) throws -> Int {
    guard box.payload + 28 <= box.end else {
      throw MediaFormatError.malformedBox("\(context): '\(box.type)' is \(box.size) bytes")
    }
    let version = BigEndian.u16(bytes, box.payload + 8)
    let extra: Int
    switch version {
    case 0: extra = 0
    case 1: extra = 16
    case 2: extra = 36
    default: throw MediaFormatError.unsupportedBox("\(context): '\(box.type)' sound description version \(version)")
    }
    guard box.payload + 28 + extra <= box.end else {
      throw MediaFormatError.malformedBox("\(context): '\(box.type)' is \(box.size) bytes")
    }
    return box.payload + 28 + extra
  }
}
