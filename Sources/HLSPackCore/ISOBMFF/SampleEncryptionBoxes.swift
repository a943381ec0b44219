/// The sample auxiliary information of one protected `traf` (ISO/IEC 23001-7 `senc`, ISO/IEC 14496-12 `saiz`/`saio`):
/// `senc` (version 0; flags 2 when subsamples follow; no per-sample IV, the
/// constant IV is in `tenc`), `saiz` (the size of each sample's record) and
/// `saio` (one offset: where the first record lies, relative to the moof).
struct SampleEncryptionBoxes {
  /// Per sample: its subsamples, or nil for whole-sample encryption (audio).
  var records: [[CBCSSubsample]?]

  var usesSubsamples: Bool { records.contains { $0 != nil } }

  /// senc: 8 header + 4 version/flags + 4 sample_count, then the records.
  static let sencRecordsOffset = 16
  /// saio: 8 header + 4 version/flags + 4 entry_count, then the offset.
  static let saioOffsetField = 16

  func recordSize(_ record: [CBCSSubsample]?) -> Int { record.map { 2 + 6 * $0.count } ?? 0 }

  func senc() throws -> [UInt8] {
    var w = BoxWriter()
    w.versionAndFlags(0, usesSubsamples ? 2 : 0)
    w.u32(UInt32(records.count))
    for record in records {
      guard let record else { continue }
      guard record.count <= Int(UInt16.max) else {
        throw MediaFormatError.unsupportedBox("a sample with \(record.count) subsamples")
      }
      w.u16(UInt16(record.count))
      for entry in record {
        guard entry.clear <= Int(UInt16.max), entry.protected <= Int(UInt32.max) else {
          throw MediaFormatError.malformedBox("subsample (\(entry.clear), \(entry.protected)) does not fit senc")
        }
        w.u16(UInt16(entry.clear))
        w.u32(UInt32(entry.protected))
      }
    }
    return BoxWriter.box("senc", w.bytes)
  }

  func saiz() throws -> [UInt8] {
    let sizes = records.map(recordSize)
    var w = BoxWriter()
    w.versionAndFlags(0, 0)
    if let first = sizes.first, first > 0, sizes.allSatisfy({ $0 == first }) {
      guard first <= 255 else { throw tooManySubsamples(first) }
      w.u8(UInt8(first))
      w.u32(UInt32(sizes.count))
    } else {
      w.u8(0)
      w.u32(UInt32(sizes.count))
      for size in sizes {
        guard size <= 255 else { throw tooManySubsamples(size) }
        w.u8(UInt8(size))
      }
    }
    return BoxWriter.box("saiz", w.bytes)
  }

  /// saio with its offset set to 0; `patchSaio` fills it in once the moof is laid out.
  static func saio() -> [UInt8] {
    var w = BoxWriter()
    w.versionAndFlags(0, 0)
    w.u32(1)
    w.u32(0)
    return BoxWriter.box("saio", w.bytes)
  }

  private func tooManySubsamples(_ size: Int) -> MediaFormatError {
    .unsupportedBox(
      "a sample needs \((size - 2) / 6) subsamples; saiz can describe at most 42 (more than 41 slices in one picture)")
  }
}
