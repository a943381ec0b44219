/// AES-128-CBC for `cbcs`, run in place. The OpenSSL implementation lives in
/// HLSPackCrypto; Core only says which bytes form one chain.
public protocol CBCSChainCipher: AnyObject {
  /// Starts a CBC chain from the constant IV, then encrypts `runs` (whole
  /// 16-byte blocks, in order) of `bytes` in place, the chain continuing from
  /// one run to the next.
  func encryptChain(_ bytes: inout [UInt8], runs: [Range<Int>]) throws
}

/// Protects the movie fragments of one fMP4 rendition with SAMPLE-AES `cbcs`
/// (ISO/IEC 23001-7, ISO/IEC 14496-12): encrypts every sample of every track in place, and adds
/// `saiz`, `saio` and `senc` to each `traf`; the moof grows, so every trun
/// data_offset grows by the same amount and the mdat stays as it was.
///
/// Video (1:9): each subsample's protected bytes, one CBC chain per subsample
/// from the constant IV. Audio (0:0): each sample's whole blocks from byte 0,
/// one chain per sample, the tail clear.
public final class CBCSFragmentEncryptor {
  private struct Track {
    var mapper: CBCSSubsampleMapper?
  }

  private let cipher: CBCSChainCipher
  private var tracks: [UInt32: Track] = [:]
  private let trexDefaultSizes: [UInt32: UInt32]

  /// `initSegment`: the rendition's init segment, clear or already protected
  /// by `CBCSInitProtector` (its tracks and parameter sets are read from it).
  public init(initSegment: [UInt8], cipher: CBCSChainCipher) throws {
    self.cipher = cipher
    let layout = try InitSegmentLayout(initSegment, acceptProtected: true)
    var defaults: [UInt32: UInt32] = [:]
    for track in layout.tracks {
      defaults[track.id] = track.trexDefaultSampleSize
      guard let entry = track.entries.first else { continue }
      switch track.kind {
      case .audio: tracks[track.id] = Track(mapper: nil)
      case .h264:
        tracks[track.id] = Track(
          mapper: try CBCSSubsampleMapper(codec: .h264, configuration: try .avc(entry.configuration)))
      case .hevc:
        tracks[track.id] = Track(
          mapper: try CBCSSubsampleMapper(codec: .hevc, configuration: try .hevc(entry.configuration)))
      case .av1:
        // AV1's subsamples protect tile data only (AV1 Codec ISO Media File
        // Format Binding §7), which needs every frame header parsed to its end.
        throw MediaFormatError.unsupportedBox(
          "track \(track.id): 'av01': AV1 subsamples must leave each frame header clear and protect tile data only")
      }
    }
    trexDefaultSizes = defaults
  }

  /// The protected fragment(s) of a segment (one or more moof + mdat pairs).
  public func encrypt(_ segment: [UInt8]) throws -> [UInt8] {
    var bytes = segment
    let top = try ISOBox.children(of: segment, in: 0..<segment.count, context: "segment")
    let mdats = top.filter { $0.type == "mdat" }.map(\.payloadRange)
    var output: [UInt8] = []
    output.reserveCapacity(segment.count + 1024)
    var replacements: [Int: [UInt8]] = [:]
    for box in top {
      switch box.type {
      case "moof": replacements[box.start] = try protect(moof: box, in: &bytes, mdats: mdats)
      case "sidx", "ssix", "mfra":
        throw MediaFormatError.unsupportedBox("segment-level '\(box.type)' would point at moved bytes")
      default: break
      }
    }
    for box in top { output += replacements[box.start] ?? Array(bytes[box.range]) }
    return output
  }

  /// Encrypts the samples of one moof in `bytes` and returns the new moof.
  private func protect(moof: ISOBox, in bytes: inout [UInt8], mdats: [Range<Int>]) throws -> [UInt8] {
    guard moof.payload - moof.start == 8 else { throw MediaFormatError.unsupportedBox("moof with a 64-bit size") }
    let children = try ISOBox.children(of: bytes, in: moof.payloadRange, context: "moof")
    var newMoof = BoxWriter()
    newMoof.u32(0)
    newMoof.fourCC("moof")
    var dataOffsetFields: [Int] = []
    var saioFields: [(field: Int, senc: Int)] = []
    for child in children {
      guard child.type == "traf" else {
        newMoof.append(Array(bytes[child.range]))
        continue
      }
      guard child.payload - child.start == 8 else { throw MediaFormatError.unsupportedBox("traf with a 64-bit size") }
      let trafChildren = try ISOBox.children(of: bytes, in: child.payloadRange, context: "traf")
      for type in ["senc", "saiz", "saio"] where trafChildren.contains(where: { $0.type == type }) {
        throw MediaFormatError.unsupportedBox("traf already has a '\(type)' box: the fragment is already protected")
      }
      let layout = try TrackFragmentLayout(bytes, moof: moof, traf: child) { self.trexDefaultSizes[$0] }
      let boxes = try encryptSamples(layout, in: &bytes, mdats: mdats)
      let saiz = try boxes.saiz(), saio = SampleEncryptionBoxes.saio(), senc = try boxes.senc()
      let trafStart = newMoof.bytes.count
      let original = Array(bytes[child.payloadRange])
      newMoof.u32(UInt32(8 + original.count + saiz.count + saio.count + senc.count))
      newMoof.fourCC("traf")
      newMoof.append(original)
      dataOffsetFields += layout.dataOffsetFields.map { trafStart + 8 + ($0 - child.payload) }
      let saioStart = newMoof.bytes.count + saiz.count
      saioFields.append((saioStart + SampleEncryptionBoxes.saioOffsetField, saioStart + saio.count))
      newMoof.append(saiz)
      newMoof.append(saio)
      newMoof.append(senc)
    }
    var out = newMoof.bytes
    BigEndian.put32(UInt32(out.count), into: &out, at: 0)
    let growth = out.count - moof.size
    for field in dataOffsetFields {
      let moved = Int(Int32(bitPattern: BigEndian.u32(out, field))) + growth
      guard let value = Int32(exactly: moved) else {
        throw MediaFormatError.unsupportedBox("trun data_offset \(moved) overflows")
      }
      BigEndian.put32(UInt32(bitPattern: value), into: &out, at: field)
    }
    for (field, senc) in saioFields {
      BigEndian.put32(UInt32(senc + SampleEncryptionBoxes.sencRecordsOffset), into: &out, at: field)
    }
    return out
  }

  private func encryptSamples(_ layout: TrackFragmentLayout, in bytes: inout [UInt8], mdats: [Range<Int>]) throws
    -> SampleEncryptionBoxes
  {
    guard let track = tracks[layout.trackID] else {
      throw MediaFormatError.malformedBox("traf of track \(layout.trackID), which the init segment does not declare")
    }
    var records: [[CBCSSubsample]?] = []
    for (index, sample) in layout.samples.enumerated() {
      do {
        guard
          mdats.contains(where: { $0.contains(sample.lowerBound) && sample.upperBound <= $0.upperBound })
            || sample.isEmpty
        else {
          throw MediaFormatError.malformedBox("the sample's bytes \(sample) are not inside an mdat")
        }
        guard let mapper = track.mapper else {
          let runs = CBCSPattern.audio.encryptedRuns(in: sample)
          if !runs.isEmpty { try cipher.encryptChain(&bytes, runs: runs) }
          records.append(nil)
          continue
        }
        let subsamples = try mapper.subsamples(bytes, sample: sample)
        var offset = sample.lowerBound
        for subsample in subsamples {
          let protected = (offset + subsample.clear)..<(offset + subsample.clear + subsample.protected)
          let runs = CBCSPattern.video.encryptedRuns(in: protected)
          if !runs.isEmpty { try cipher.encryptChain(&bytes, runs: runs) }
          offset = protected.upperBound
        }
        records.append(subsamples)
      } catch let error as MediaFormatError {
        throw MediaFormatError.inSample(track: layout.trackID, sample: index, error)
      }
    }
    return SampleEncryptionBoxes(records: records)
  }
}
