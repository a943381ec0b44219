import Foundation
import HLSPackCore
import HLSPackCrypto
import HLSPackMedia

/// One written segment: what the playlist, the report and keys.json need.
struct SegmentRecord: Sendable {
  var uri: String
  var startTicks: Int64
  var durationTicks: Int64
  var byteCount: Int
  /// Where the segment begins in the rendition's single file; nil when it is a file of its own.
  var byteOffset: Int? = nil
  /// Only with `segment.checksums`.
  var sha256: String?
  var key: KeyTag
  var keyID: String?
  var keyFile: String?
  var period: Int
  /// The IV that encrypted the segment, also when the playlist leaves it implicit.
  var iv: [UInt8]?
  var keyframes: [KeyframeRange]
  /// EXT-X-DISCONTINUITY before this segment.
  var discontinuity: Bool

  /// Its bytes in the rendition's single file (EXT-X-BYTERANGE); nil when it is a file of its own.
  var byteRange: SegmentByteRange? { byteOffset.map { SegmentByteRange(length: byteCount, offset: $0) } }
  /// The part of a joined asset the segment belongs to (0 for a plain asset).
  var part = 0
  /// EXT-X-MAP before this segment: its part's init segment, which differs from the one in force.
  var map: String? = nil
}

/// Receives one rendition's segments from its muxing thread, part by part,
/// decides each segment's key and IV there, and passes the parts on to a
/// segment file writer that encrypts whole-segment AES-128, writes and records
/// them while the next parts are muxed; no segment is ever held whole.
/// SAMPLE-AES is applied before the bytes arrive (TS: by the muxer, with the
/// encryptor `destination` hands it) or here on the muxing thread (fMP4
/// `cbcs`: samples in place, init segment rewritten).
final class RenditionWriter: SegmentSink {
  let name: String
  let folder: URL
  private let container: Container
  /// Every segment (and the fMP4 init section) in one file, `container.singleFileName`.
  private let singleFile: Bool
  /// Nil for a clear rendition.
  private let protector: SegmentProtector?
  private let file: SegmentWriterLanes
  /// Complete after `close()`.
  private(set) var records: [SegmentRecord] = []
  /// The fMP4 initialization segment's file name.
  private(set) var initialization: String?
  /// Its bytes in the single file, which it opens.
  private(set) var initializationRange: SegmentByteRange?
  /// The initialization segment as a keyed resource, when it is encrypted (`encrypt_init`).
  private(set) var initializationRecord: SegmentRecord?
  /// Index of the segment whose bytes are arriving.
  private var index = 0
  /// A file writer has opened segment `index`.
  private var opened = false
  /// With a protector that `protectsFragments`: the fragment's bytes so far.
  private var fragment: [UInt8] = []
  /// The part of a joined asset being written (0 for a plain asset).
  private var part = 0
  /// The next segment opens a part after the first: EXT-X-DISCONTINUITY before it.
  private var opensPart = false
  /// The init segment in force, and a later part's own when it differs, for the next segment's EXT-X-MAP.
  private var lastInitialization: [UInt8]?
  private var pendingMap: String?
  /// The init segments written so far, by their bytes: a part whose init
  /// segment is one of them (a clear pre-roll after the content) refers to it.
  private var writtenInitializations: [[UInt8]: String] = [:]
  /// Where the part being written starts on the playlist's timeline, 90 kHz.
  private var partStart: Int64 = 0
  /// fMP4 after the first part: its fragments' decode times, moved to run on from the parts before.
  private var timeShift: FragmentTimeShift?
  /// The media time of every segment accepted so far, 90 kHz.
  private(set) var acceptedTicks: Int64 = 0

  init(
    name: String, asset: String, assetFolder: URL, container: Container, protection: SegmentProtection,
    encryption: EncryptionSettings, keys: KeyRing?, checksums: Bool, singleFile: Bool = false, writerLanes: Int
  ) throws {
    self.name = name
    self.container = container
    self.singleFile = singleFile
    folder = assetFolder.appendingPathComponent(name)
    protector = try protection.protector(rendition: name, asset: asset, encryption: encryption, keys: keys)
    try createFolder(folder)
    file = try SegmentWriterLanes(rendition: name, checksums: checksums, singleFile: singleFile, lanes: writerLanes)
  }

  /// Where the muxer sends this rendition's segments, with the sample
  /// encryptor it runs first when the rendition has one (a later part's
  /// muxer counts its segments from 0, so they are numbered on from here).
  var destination: SegmentDestination {
    let encryptor = protector?.sampleEncryptor.map { index == 0 ? $0 : PartSampleEncryptor($0, firstSegment: index) }
    return SegmentDestination(sink: self, sampleEncryptor: encryptor)
  }

  /// Segments from here on belong to part `number` of a joined asset, clear
  /// or protected as the profile says; the first of a later part follows an
  /// EXT-X-DISCONTINUITY (RFC 8216bis §4.4.4.3). Where that part's muxer sends them.
  /// `start`: where the part starts on the playlist's timeline (90 kHz), the
  /// same in every rendition: the first video rendition's parts before it.
  func beginPart(_ number: Int, clear: Bool, start: Int64) -> SegmentDestination {
    part = number
    opensPart = number > 0
    partStart = start
    timeShift = nil
    keying?.beginPart(at: index, clear: clear)
    return destination
  }

  /// Moves part `number`'s segments by `ticks` on the playlist's timeline
  /// (each part's muxer starts its own): called after `close()`.
  func shiftPart(_ number: Int, by ticks: Int64) {
    for i in records.indices where records[i].part == number {
      records[i].startTicks += ticks
      for k in records[i].keyframes.indices { records[i].keyframes[k].ptsTicks += ticks }
    }
  }

  private var keying: SegmentKeying? { protector?.keying }

  /// Waits until every segment is written; throws the first failure.
  func close() throws {
    records = try file.finish()
  }

  func acceptInitialization(_ bytes: [UInt8]) throws {
    let name = singleFile ? container.singleFileName : part == 0 ? "init.mp4" : "init_\(part).mp4"
    if partStart != 0 { timeShift = try protecting(name) { try FragmentTimeShift(initSegment: bytes, ticks: partStart) } }
    var bytes = bytes
    if let protector, keying?.isInClearPart(index) != true {
      bytes = try protecting(name) { try protector.protectInitialization(bytes, firstSegment: index) }
    }
    if singleFile {
      try openSingleFile(startingWith: bytes, name: name)
      return
    }
    guard let uri = try writeInitialization(bytes, name: name) else { return }
    guard part == 0 else {
      pendingMap = uri
      return
    }
    initialization = uri
    if let material = try keying?.initializationMaterial() {
      initializationRecord = SegmentRecord(
        uri: uri, startTicks: 0, durationTicks: 0, byteCount: bytes.count, sha256: nil, key: material.tag,
        keyID: material.key.content.idHex, keyFile: material.key.file, period: material.key.period, iv: material.iv,
        keyframes: [], discontinuity: false)
    }
  }

  /// The rendition's one file opens with the init section, padded for AES-128
  /// so that the first segment's range starts on its own IV (`SingleFileLayout`).
  private func openSingleFile(startingWith bytes: [UInt8], name: String) throws {
    var bytes = bytes
    if protector?.encryptsWholeSegments == true, let iv = try keying?.material(for: 0)?.iv {
      bytes += SingleFileLayout.alignmentBox(after: bytes.count, endingWith: iv)
    }
    try file.send(.open(folder.appendingPathComponent(name), wholeSegment: nil))
    try file.send(.bytes(bytes))
    initialization = name
    initializationRange = SegmentByteRange(length: bytes.count, offset: 0)
  }

  /// The URI of an init section that takes effect: nil when it is the one in
  /// force (a later part needs no EXT-X-MAP of its own), the earlier file when
  /// it equals one written before, else `name`, written now.
  private func writeInitialization(_ bytes: [UInt8], name: String) throws -> String? {
    guard bytes != lastInitialization else { return nil }
    lastInitialization = bytes
    if let written = writtenInitializations[bytes] { return written }
    try writeFile(bytes, to: folder.appendingPathComponent(name))
    writtenInitializations[bytes] = name
    return name
  }

  /// The records of every resource a key encrypts: the initialization
  /// segment when it is encrypted, then the segments.
  var keyedRecords: [SegmentRecord] { (initializationRecord.map { [$0] } ?? []) + records }

  private var uri: String {
    singleFile ? container.singleFileName : String(format: "segment_%05d.", index) + container.segmentExtension
  }

  func acceptBytes(_ bytes: [UInt8]) throws {
    var bytes = bytes
    if let timeShift { try protecting(uri) { try timeShift.shift(&bytes) } }
    if protector?.protectsFragments == true {
      fragment += bytes
      return
    }
    try open()
    try file.send(.bytes(bytes))
  }

  private func open() throws {
    guard !opened else { return }
    opened = true
    // Only whole-segment AES-128 is the file writer's to encrypt.
    let wholeSegment = protector?.encryptsWholeSegments == true ? try keying?.material(for: index) : nil
    try file.send(.open(folder.appendingPathComponent(uri), wholeSegment: wholeSegment))
  }

  func accept(_ segment: MediaSegment) throws {
    try open()
    let material = try keying?.material(for: index)
    var keyframes = segment.keyframes
    var discontinuity = opensPart
    if let protector {
      if protector.protectsFragments {
        var bytes = fragment
        // A clear part's fragments are written as they are.
        if keying?.isInClearPart(index) != true {
          bytes = try protecting(uri) { try protector.protectFragment(fragment, index: index) }
          keyframes = Self.keyframes(of: bytes, measuredAgain: segment.keyframes)
        }
        fragment.removeAll(keepingCapacity: true)
        try file.send(.bytes(bytes))
      }
      discontinuity = try protecting(uri) { try protector.finishSegment(index, material: material) } || discontinuity
    }
    var record = SegmentRecord(
      uri: uri, startTicks: segment.startTicks, durationTicks: segment.durationTicks, byteCount: 0, sha256: nil,
      key: material?.tag ?? .none, keyID: material?.key.content.idHex, keyFile: material?.key.file,
      period: keying?.period(of: index) ?? 0, iv: material?.iv, keyframes: keyframes, discontinuity: discontinuity)
    record.part = part
    record.map = pendingMap
    try file.send(.close(record))
    index += 1
    acceptedTicks += segment.durationTicks
    opened = false
    opensPart = false
    pendingMap = nil
  }

  /// A protected fragment's moof grew: its I-frame range (moof + first sample)
  /// is measured again. Audio renditions have none: an I-frame playlist is of
  /// video (RFC 8216bis 4.4.3.6).
  private static func keyframes(of protected: [UInt8], measuredAgain keyframes: [KeyframeRange]) -> [KeyframeRange] {
    keyframes.first.flatMap { first in
      FragmentLayout.firstSampleEnd(protected).map {
        [KeyframeRange(offset: 0, length: $0, ptsTicks: first.ptsTicks)]
      }
    } ?? []
  }

  /// Runs a protector's hook on `file` of this rendition; its refusal names the file.
  private func protecting<T>(_ file: String, _ hook: () throws -> T) throws -> T {
    do {
      return try hook()
    } catch {
      throw PackError.crypto("\(name)/\(file): \(error)")
    }
  }
}
