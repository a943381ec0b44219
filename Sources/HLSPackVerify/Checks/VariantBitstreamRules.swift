import HLSPackCore

/// The rules that compare a multivariant playlist's attributes with what its
/// variants' segments carry, and the variants with each other.
public enum VariantBitstreamRules {
  /// `media(uri)`: the inspected segments of the media playlist a variant or
  /// rendition URI names, nil when it was not read.
  public static func check(
    _ playlist: VerifiedMultivariantPlaylist, file: String, media: (String) -> [InspectedSegment]?
  ) -> [Finding] {
    var findings: [Finding] = []
    var aligned: (uri: String, starts: [Int64?], tolerance: Int64)?
    for variant in playlist.variants where !variant.iFrame {
      guard let segments = media(variant.uri) else { continue }
      let facts = segments.compactMap(\.facts)
      func finding(_ rule: VerifyRule, _ detail: String) {
        findings.append(Finding(rule, file: file, line: variant.line, segment: variant.uri, detail: detail))
      }
      var carried = Set(facts.flatMap(\.audioCodecs))
      if let video = facts.lazy.compactMap(\.videoCodec).first { carried.insert(video) }
      // Each playlist once, however many roles it plays.
      var audioPlaylists = [variant.uri]
      for rendition in playlist.renditions(of: variant, type: "AUDIO") {
        guard let uri = rendition.uri, !audioPlaylists.contains(uri) else { continue }
        audioPlaylists.append(uri)
        let renditionFacts = media(uri)?.compactMap(\.facts) ?? []
        carried.formUnion(renditionFacts.flatMap(\.audioCodecs))
      }
      if let declared = variant.value("CODECS") {
        let names = declared.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let audio = AudioCodecsRules.Carried(audioPlaylists.map { media($0)?.compactMap(\.facts) ?? [] })
        let (audioFindings, explained) = AudioCodecsRules.check(
          entries: names, carried: audio, variant: variant, file: file)
        findings += audioFindings
        let av1 = AV1CodecsRules.check(
          entries: names, header: facts.lazy.compactMap(\.av1SequenceHeader).first, variant: variant, file: file)
        findings += av1.findings
        for codec in carried.sorted()
        where !explained.contains(codec.lowercased()) && !av1.explained.contains(codec.lowercased())
          && !names.contains(where: { Self.declares($0, codec.lowercased()) })
        {
          finding(
            VerifyRules.variantCodecsMismatch, "CODECS \"\(declared)\" does not name \(codec), which the segments carry"
          )
        }
      }
      guard let first = facts.first(where: { $0.videoCodec != nil || $0.picture != nil }) else { continue }
      for (rule, detail) in pictureMismatches(variant, first) { finding(rule, detail) }
      for (rule, detail) in SupplementalCodecsRules.mismatches(variant, facts) { finding(rule, detail) }
      let starts = segments.map { $0.facts?.firstPTS }
      let tolerance = (first.frameDuration ?? 0) / 2
      guard let reference = aligned else {
        aligned = (variant.uri, starts, tolerance)
        continue
      }
      let allowed = min(tolerance, reference.tolerance)
      for index in 0..<min(starts.count, reference.starts.count) {
        guard let mine = starts[index], let theirs = reference.starts[index], abs(mine - theirs) > allowed else {
          continue
        }
        findings.append(
          Finding(
            VerifyRules.variantsMisaligned, file: file, line: variant.line, segment: segments[index].segment.uri,
            detail: "segment \(index) starts at PTS \(mine) here and at \(theirs) in \(reference.uri)"))
        break
      }
    }
    return findings
  }

  /// RESOLUTION, FRAME-RATE and VIDEO-RANGE against the first video
  /// segment's SPS (or, for the frame rate without VUI timing, its timestamps).
  static func pictureMismatches(
    _ variant: VerifiedMultivariantPlaylist.Variant, _ first: SegmentMediaFacts
  ) -> [(VerifyRule, String)] {
    var found: [(VerifyRule, String)] = []
    if let resolution = variant.value("RESOLUTION"), let picture = first.picture,
      resolution.lowercased() != "\(picture.width)x\(picture.height)"
    {
      found.append(
        (
          VerifyRules.variantResolutionMismatch,
          "RESOLUTION \(resolution), the SPS codes \(picture.width)x\(picture.height)"
        ))
    }
    let measuredRate = first.picture?.frameRate ?? first.frameDuration.map { Double(first.timescale) / Double($0) }
    if let text = variant.value("FRAME-RATE"), let declared = PlaylistNumber.decimalFloat(text), let measuredRate,
      abs(declared - measuredRate) > 0.01
    {
      found.append(
        (
          VerifyRules.variantFrameRateMismatch,
          "FRAME-RATE \(PlaylistNumber.shown(text)), the stream runs at \(BitstreamRules.seconds(measuredRate)) frames per second"
        ))
    }
    // An absent VIDEO-RANGE means SDR (RFC 8216bis §4.4.6.2).
    let declaredRange = variant.value("VIDEO-RANGE") ?? VideoRange.sdr.rawValue
    if let picture = first.picture, declaredRange != picture.videoRange.rawValue {
      let transfer = picture.transferCharacteristics.map { "transfer_characteristics \($0)" } ?? "no colour description"
      found.append(
        (
          VerifyRules.variantVideoRangeMismatch,
          "VIDEO-RANGE \(variant.value("VIDEO-RANGE") ?? "absent (SDR)"), the SPS has \(transfer): \(picture.videoRange.rawValue)"
        ))
    }
    return found
  }

  /// Whether a CODECS entry names the codec found: the same string, avc1
  /// for avc3 and hvc1 for hev1 (RFC 6381 §3.3; ISO/IEC 14496-15 Annex E), and
  /// HE-AAC (mp4a.40.5, .29) for the AAC-LC an ADTS header can only signal
  /// (ISO/IEC 14496-3 §1.6.5.2, implicit SBR signalling: whether the bytes
  /// carry SBR and PS is `variant.codecs-audio-mismatch`'s to check).
  static func declares(_ entry: String, _ codec: String) -> Bool {
    func normal(_ text: String) -> String {
      text.replacingOccurrences(of: "avc3.", with: "avc1.").replacingOccurrences(of: "hev1.", with: "hvc1.")
    }
    if normal(entry) == normal(codec) { return true }
    // MP3: Apple lists mp4a.40.34 whichever objectTypeIndication the esds has.
    if AudioCodecsRules.mp3.contains(entry), AudioCodecsRules.mp3.contains(codec) { return true }
    return codec == "mp4a.40.2" && (entry == "mp4a.40.5" || entry == "mp4a.40.29")
  }
}
