import HLSPackCore

/// Checks of a segment's clear bytes, fed piece by piece so that memory stays
/// flat however large a segment is: that they are the container the playlist
/// implies, which is also how a wrong key or IV shows.
public protocol ClearBytesScanner {
  mutating func consume(_ bytes: ArraySlice<UInt8>)
  /// nil when every byte fed was as expected; otherwise what is wrong.
  func finish() -> String?
}

/// Whole 188-byte MPEG-TS packets, each starting with the 0x47 sync byte
/// (ISO/IEC 13818-1 §2.4.3.2).
public struct TransportStreamScanner: ClearBytesScanner, Sendable {
  static let packetSize = 188
  static let syncByte: UInt8 = 0x47
  private var offset = 0
  private var problem: String?

  public init() {}

  public mutating func consume(_ bytes: ArraySlice<UInt8>) {
    guard problem == nil else { return }
    var index = (Self.packetSize - offset % Self.packetSize) % Self.packetSize
    while index < bytes.count {
      guard bytes[bytes.startIndex + index] == Self.syncByte else {
        problem = "byte \(offset + index) is not the 0x47 sync byte"
        return
      }
      index += Self.packetSize
    }
    offset += bytes.count
  }

  public func finish() -> String? {
    if let problem { return problem }
    if offset == 0 { return "no bytes" }
    return offset % Self.packetSize == 0 ? nil : "\(offset) bytes is not a whole number of 188-byte packets"
  }
}

/// A run of ISO BMFF boxes ending exactly at the end (ISO/IEC 14496-12 §4.2),
/// opening with a box a media segment can open with.
public struct FragmentScanner: ClearBytesScanner, Sendable {
  static let segmentOpeners: Set<String> = ["styp", "sidx", "moof", "emsg", "prft", "ftyp"]
  private var offset = 0
  /// Where the box being read, or the next one, starts.
  private var boxStart = 0
  private var boxType = ""
  private var nextBox = 0
  /// The header bytes of the box at `nextBox` read so far.
  private var header: [UInt8] = []
  private var boxes = 0
  private var problem: String?
  /// An I-frame range holds the `moof` and only its picture's part of the `mdat`.
  private let allowsCutLastBox: Bool

  public init(allowsCutLastBox: Bool = false) { self.allowsCutLastBox = allowsCutLastBox }

  public mutating func consume(_ bytes: ArraySlice<UInt8>) {
    var index = bytes.startIndex
    while problem == nil, index < bytes.endIndex {
      let absolute = offset + (index - bytes.startIndex)
      if absolute < nextBox {
        index += min(nextBox - absolute, bytes.endIndex - index)
        continue
      }
      header.append(bytes[index])
      index += 1
      readHeader()
    }
    offset += bytes.count
  }

  private mutating func readHeader() {
    guard header.count >= 8 else { return }
    let compactSize = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
    if compactSize == 1, header.count < 16 { return }
    let type = String(decoding: header[4..<8], as: UTF8.self)
    if boxes == 0, !Self.segmentOpeners.contains(type) {
      problem = "first box is \(type.debugDescription)"
      return
    }
    // Size 1: a 64-bit size follows; size 0: the box runs to the end.
    let size =
      compactSize == 1
      ? header[8..<16].reduce(0) { $0 << 8 | Int($1) } : compactSize == 0 ? Int.max - nextBox : compactSize
    guard size >= header.count, size <= Int.max - nextBox else {
      problem = "box \(type.debugDescription) at offset \(nextBox) has size \(size)"
      return
    }
    boxStart = nextBox
    boxType = type
    nextBox += size
    header = []
    boxes += 1
  }

  public func finish() -> String? {
    if let problem { return problem }
    if boxes == 0, header.isEmpty { return "no bytes" }
    if !header.isEmpty { return "\(header.count) stray bytes at offset \(nextBox)" }
    if nextBox > offset, nextBox != Int.max, !allowsCutLastBox {
      return "box \(boxType.debugDescription) at offset \(boxStart) overruns the segment"
    }
    return nil
  }
}

/// The scanners over whole byte arrays.
public enum SegmentBytesRules {
  public static func transportStreamProblem(_ bytes: [UInt8]) -> String? { scan(bytes, TransportStreamScanner()) }
  public static func fragmentProblem(_ bytes: [UInt8]) -> String? { scan(bytes, FragmentScanner()) }

  static func scan(_ bytes: [UInt8], _ scanner: some ClearBytesScanner) -> String? {
    var scanner = scanner
    scanner.consume(bytes[...])
    return scanner.finish()
  }
}

/// A WebVTT file opens with "WEBVTT", after an optional BOM (W3C WebVTT §4.1).
public struct WebVTTScanner: ClearBytesScanner, Sendable {
  static let signature = Array("WEBVTT".utf8)
  private var head: [UInt8] = []

  public init() {}

  public mutating func consume(_ bytes: ArraySlice<UInt8>) {
    if head.count < 9 { head += bytes.prefix(9 - head.count) }
  }

  public func finish() -> String? {
    let text = head.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(head.dropFirst(3)) : head
    return text.starts(with: Self.signature) ? nil : "does not start with WEBVTT"
  }
}

/// What a segment's clear bytes should be, from its playlist: fMP4 when an
/// EXT-X-MAP applies, else by the file name's extension (RFC 8216bis §3).
public enum SegmentContainer: Sendable, Equatable {
  case transportStream, fragmentedMP4, webVTT, other

  public static func of(uri: String, hasMap: Bool) -> SegmentContainer {
    if hasMap { return .fragmentedMP4 }
    let path = uri.prefix { $0 != "?" && $0 != "#" }
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return .other }
    switch path[path.index(after: dot)...].lowercased() {
    case "ts", "m2ts", "mts", "tsv", "tsa": return .transportStream
    case "m4s", "mp4", "m4v", "m4a", "cmfv", "cmfa": return .fragmentedMP4
    case "vtt", "webvtt": return .webVTT
    default: return .other
    }
  }

  /// The scanner for this container's clear bytes; nil when there is none yet.
  public var scanner: (any ClearBytesScanner)? {
    switch self {
    case .transportStream: TransportStreamScanner()
    case .fragmentedMP4: FragmentScanner()
    case .webVTT: WebVTTScanner()
    case .other: nil
    }
  }

  public var name: String {
    switch self {
    case .transportStream: "MPEG-TS"
    case .fragmentedMP4: "fMP4"
    case .webVTT: "WebVTT"
    case .other: "media"
    }
  }
}
