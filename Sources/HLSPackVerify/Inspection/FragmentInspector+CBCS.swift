import HLSPackCore

extension FragmentInspector {
  /// One senc record: the sample's IV (empty: the constant IV) and subsamples (nil: the whole sample).
  struct SampleRecord {
    var iv: [UInt8]
    var subsamples: [CBCSSubsample]?
  }

  /// The senc records of a traf (ISO/IEC 23001-7 §7.2.1).
  static func records(_ bytes: [UInt8], _ traf: ISOBox, ivSize: Int) throws -> [SampleRecord] {
    let children = try ISOBox.children(of: bytes, in: traf.payloadRange, context: "traf")
    let senc = try ISOBox.single("senc", in: children, context: "traf")
    guard senc.payload + 8 <= senc.end else { throw MediaFormatError.malformedBox("senc is \(senc.size) bytes") }
    let hasSubsamples = BigEndian.u32(bytes, senc.payload) & 0x2 != 0
    let count = Int(BigEndian.u32(bytes, senc.payload + 4))
    var at = senc.payload + 8
    var records: [SampleRecord] = []
    for index in 0..<count {
      guard at + ivSize + (hasSubsamples ? 2 : 0) <= senc.end else {
        throw MediaFormatError.malformedBox("senc record \(index) runs past the box")
      }
      var record = SampleRecord(iv: Array(bytes[at..<at + ivSize]), subsamples: nil)
      at += ivSize
      if hasSubsamples {
        let entries = Int(BigEndian.u16(bytes, at))
        at += 2
        guard at + 6 * entries <= senc.end else {
          throw MediaFormatError.malformedBox("senc record \(index) runs past the box")
        }
        record.subsamples = (0..<entries).map { entry in
          let base = at + 6 * entry
          return CBCSSubsample(
            clear: Int(BigEndian.u16(bytes, base)), protected: Int(BigEndian.u32(bytes, base + 2)))
        }
        at += 6 * entries
      }
      records.append(record)
    }
    return records
  }

  /// Checks each sample's subsample map and decrypts its protected runs in place.
  static func decrypt(
    _ bytes: inout [UInt8], _ layout: TrackFragmentLayout, track: FragmentedInitSection.Track,
    protection: FragmentedInitSection.Protection, cipher: any CBCSChainDecrypting
  ) throws {
    let records = try records(bytes, layout.traf, ivSize: protection.perSampleIVSize)
    guard records.count == layout.samples.count else {
      throw MediaFormatError.malformedBox("senc has \(records.count) records for \(layout.samples.count) samples")
    }
    // AV1 has no NAL units to map: its samples are decrypted as their senc says.
    let mapper = try track.configuration.map {
      try CBCSSubsampleMapper(codec: track.kind == .hevc ? .hevc : .h264, configuration: $0)
    }
    for (index, (sample, record)) in zip(layout.samples, records).enumerated() {
      // An 8-byte IV is padded with zeros to 16 (ISO/IEC 23001-7, cbcs IVs).
      var iv = record.iv.isEmpty ? protection.constantIV : record.iv
      iv += [UInt8](repeating: 0, count: max(0, 16 - iv.count))
      let protected: [Range<Int>]
      do {
        protected = try protectedRanges(bytes, sample: sample, record: record, mapper: mapper)
      } catch {
        throw SubsampleMapError(description: "track \(track.id), sample \(index): \(error)")
      }
      let runs = protected.flatMap { range in
        protection.pattern.encryptedRuns(in: range)
      }
      guard !runs.isEmpty else { continue }
      do {
        // Video restarts the chain at every subsample; audio (no map) is one chain.
        if record.subsamples == nil {
          try cipher.decryptChain(&bytes, runs: runs, iv: iv)
        } else {
          for range in protected {
            let subsampleRuns = protection.pattern.encryptedRuns(in: range)
            if !subsampleRuns.isEmpty { try cipher.decryptChain(&bytes, runs: subsampleRuns, iv: iv) }
          }
        }
      } catch {
        throw MediaFormatError.inSample(track: track.id, sample: index, .malformedBox("\(error)"))
      }
    }
  }

  /// The protected byte ranges of one sample. A map must add up to the
  /// sample, and with a mapper each protected range must lie inside one
  /// slice NAL unit, after its length, NAL unit header and slice header.
  static func protectedRanges(
    _ bytes: [UInt8], sample: Range<Int>, record: SampleRecord, mapper: CBCSSubsampleMapper?
  ) throws -> [Range<Int>] {
    guard let subsamples = record.subsamples else { return [sample] }
    let total = subsamples.reduce(0) { $0 + $1.clear + $1.protected }
    guard total == sample.count else {
      throw MediaFormatError.malformedBox("subsamples add up to \(total) bytes, the sample has \(sample.count)")
    }
    var ranges: [Range<Int>] = []
    var offset = sample.lowerBound
    for subsample in subsamples {
      let range = (offset + subsample.clear)..<(offset + subsample.clear + subsample.protected)
      offset = range.upperBound
      if !range.isEmpty { ranges.append(range) }
    }
    guard let mapper else { return ranges }
    let slices = try mapper.nalUnits(bytes, sample: sample).compactMap { unit in
      unit.headerLength.map { (unit.range.lowerBound + $0)..<unit.range.upperBound }
    }
    for range in ranges
    where !slices.contains(where: { $0.contains(range.lowerBound) && range.upperBound <= $0.upperBound }) {
      throw MediaFormatError.malformedBox(
        "protected bytes \(range.lowerBound - sample.lowerBound)..<\(range.upperBound - sample.lowerBound) of the sample are not inside one slice's data"
      )
    }
    return ranges
  }
}

/// A senc record that does not fit its sample (segment.cbcs-subsample-map).
struct SubsampleMapError: Error, CustomStringConvertible {
  var description: String
}
