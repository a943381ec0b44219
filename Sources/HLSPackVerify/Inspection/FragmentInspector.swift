import HLSPackCore

/// Decrypts `cbcs` chains for `FragmentInspector`; HLSPack implements it
/// with HLSPackCrypto.
public protocol CBCSChainDecrypting {
  /// Restarts a CBC chain from `iv` and decrypts `runs` of `bytes` in place.
  func decryptChain(_ bytes: inout [UInt8], runs: [Range<Int>], iv: [UInt8]) throws
}

/// Reads one whole fMP4 media segment (moof + mdat pairs) for the bitstream
/// rules: `tfdt` and sample durations for timing, the first sample's flags,
/// and with a cipher the `cbcs` samples, decrypted by their `senc` records
/// (ISO/IEC 23001-7 §7.2, §9.5, §10.4) after checking that each record's
/// subsamples cover the sample and leave every NAL unit's length, header and
/// slice header clear.
public enum FragmentInspector {
  /// What to decode to check a key: an Annex B access unit, HEVC or not.
  public typealias Decode = (_ annexB: [UInt8], _ hevc: Bool) -> String?

  public static func inspect(
    _ bytes: inout [UInt8], initSection: FragmentedInitSection, cipher: (any CBCSChainDecrypting)?,
    decode: Decode?
  ) -> SegmentMediaFacts {
    var facts = SegmentMediaFacts()
    let main =
      initSection.tracks.values.sorted { $0.id < $1.id }.first { $0.kind != .audio }
      ?? initSection.tracks.values.sorted { $0.id < $1.id }.first
    guard let main, let top = try? ISOBox.children(of: bytes, in: 0..<bytes.count, context: "segment") else {
      return facts
    }
    facts.timescale = main.timescale
    facts.videoCodec = main.kind == .audio ? nil : main.codec
    facts.picture = main.picture
    facts.dolbyVision = main.dolbyVision
    let audio = initSection.tracks.values.filter { $0.kind == .audio }.sorted { $0.id < $1.id }
    facts.audioCodecs = audio.compactMap(\.codec)
    facts.audioUnidentified = audio.contains { $0.codec == nil }
    facts.aacTools = audio.lazy.compactMap { $0.audioConfig.flatMap { AACTools.signalled(by: $0[...]) } }.first
    var durations: [Int64] = []
    var decoded = false
    for moof in top where moof.type == "moof" {
      guard let trafs = try? ISOBox.children(of: bytes, in: moof.payloadRange, context: "moof") else { continue }
      for traf in trafs where traf.type == "traf" {
        do {
          let layout = try TrackFragmentLayout(bytes, moof: moof, traf: traf) { initSection.tracks[$0]?.defaultSize }
          guard let track = initSection.tracks[layout.trackID] else { continue }
          if let protection = track.protection, let cipher {
            try decrypt(&bytes, layout, track: track, protection: protection, cipher: cipher)
            // Annex B decoding covers H.264 and HEVC; AV1 samples are checked by their OBUs only.
            if !decoded, track.kind == .h264 || track.kind == .hevc, let decode, let sample = layout.samples.first,
              let problem = decode(annexB(bytes, sample: sample, track: track), track.kind == .hevc)
            {
              facts.problems.append(
                SegmentProblem(
                  VerifyRules.segmentCBCSUndecryptable,
                  "track \(track.id): the first sample does not decode after decryption (wrong key?): \(problem)"))
            }
            decoded = decoded || track.kind != .audio
          }
          // Samples a decoder can read (clear or decrypted), to find implicit SBR and PS.
          if track.kind == .audio, facts.aacTools == nil, facts.aacProbe == nil, let config = track.audioConfig,
            !track.encrypted || (track.protection != nil && cipher != nil)
          {
            facts.aacProbe = AACProbe(
              config: config, units: layout.samples.prefix(AACProbe.units).map { Array(bytes[$0]) })
          }
          guard track.id == main.id else { continue }
          let start = try decodeTime(bytes, traf)
          if facts.firstPTS == nil {
            facts.firstPTS = start
            if track.kind != .audio, let flags = layout.sampleFlags.first.flatMap({ $0 ?? track.defaultFlags }) {
              // sample_is_non_sync_sample (§8.8.3.1).
              facts.startsWithKeyframe = flags & 0x1_0000 == 0
            }
            if track.dolbyVision != nil, let sample = layout.samples.first {
              facts.firstSampleHasRPU = carriesRPU(bytes, sample: sample, track: track)
            }
          }
          if track.kind == .av1, facts.av1SequenceHeader == nil {
            // A key frame's temporal unit carries the sequence header itself; else the av1C's.
            let first = layout.samples.first.map { AV1OBUs.sequenceHeader(in: Array(bytes[$0])) } ?? nil
            facts.av1SequenceHeader = first ?? track.av1SequenceHeader
            facts.videoCodec = facts.av1SequenceHeader?.codecString ?? facts.videoCodec
          }
          let steps = layout.durations.map { Int64($0 ?? track.defaultDuration ?? 0) }
          durations += steps
          facts.endPTS = start + steps.reduce(0, +)
        } catch {
          let rule =
            error is SubsampleMapError ? VerifyRules.segmentCBCSSubsampleMap : VerifyRules.segmentCBCSUndecryptable
          facts.problems.append(SegmentProblem(rule, "\(error)"))
          return facts
        }
      }
    }
    facts.frameDuration = nominal(durations)
    return facts
  }

  /// A track's frame duration: the one most of its samples have (the longer
  /// on a tie). Each sample's comes from its trun, else the tfhd's default,
  /// else the init's trex (ISO/IEC 14496-12 §8.8.3, §8.8.7, §8.8.8); a
  /// packager writes per-sample durations when one frame is trimmed (the
  /// last of the audio, a few samples long), and that one is no frame to
  /// measure EXTINF by.
  static func nominal(_ durations: [Int64]) -> Int64? {
    var counts: [Int64: Int] = [:]
    for duration in durations where duration > 0 { counts[duration, default: 0] += 1 }
    return counts.max { $0.value == $1.value ? $0.key < $1.key : $0.value < $1.value }?.key
  }

  /// tfdt's baseMediaDecodeTime (§8.8.12), version 0 or 1.
  static func decodeTime(_ bytes: [UInt8], _ traf: ISOBox) throws -> Int64 {
    let children = try ISOBox.children(of: bytes, in: traf.payloadRange, context: "traf")
    let tfdt = try ISOBox.single("tfdt", in: children, context: "traf")
    let wide = bytes[tfdt.payload] == 1
    guard tfdt.payload + (wide ? 12 : 8) <= tfdt.end else {
      throw MediaFormatError.malformedBox("tfdt is \(tfdt.size) bytes")
    }
    return wide
      ? Int64(bitPattern: BigEndian.u64(bytes, tfdt.payload + 4)) : Int64(BigEndian.u32(bytes, tfdt.payload + 4))
  }

  /// Whether an HEVC sample holds a Dolby Vision RPU, an unspecified NAL unit
  /// of type 62 (Dolby Vision Streams Within the ISO Base Media File Format §2.2).
  static func carriesRPU(_ bytes: [UInt8], sample: Range<Int>, track: FragmentedInitSection.Track) -> Bool {
    RandomAccess.nalUnits(Array(bytes[sample]), lengthSize: track.configuration?.nalLengthSize ?? 4).contains {
      $0.first.map { $0 >> 1 & 0x3F == 62 } ?? false
    }
  }

  /// One sample as Annex B, preceded by the init section's parameter sets.
  static func annexB(_ bytes: [UInt8], sample: Range<Int>, track: FragmentedInitSection.Track) -> [UInt8] {
    let startCode: [UInt8] = [0, 0, 0, 1]
    var out: [UInt8] = []
    for set in track.configuration?.parameterSets ?? [] { out += startCode + set }
    let lengthSize = track.configuration?.nalLengthSize ?? 4
    for nal in RandomAccess.nalUnits(Array(bytes[sample]), lengthSize: lengthSize) { out += startCode + nal }
    return out
  }
}
