import HLSPackCore

/// An I-frame playlist entry names the bytes of one picture (RFC 8216bis
/// §4.4.3.6): in MPEG-TS, the packets of the keyframe's whole PES packet,
/// read against the PAT and PMT at the start of the segment (the range must
/// not include them, though a range from the segment's start holds them); in
/// fMP4, a movie fragment's moof and as much of its mdat as holds the keyframe
/// sample; and no other picture.
public enum IFramePictureCheck {
  /// Why the clear bytes of an MPEG-TS I-frame range are not exactly one
  /// keyframe access unit; nil when they are. `initializationSection` is the
  /// clear start of the segment before the range, where its PAT and PMT are.
  public static func transportStreamProblem(
    _ bytes: ArraySlice<UInt8>, initializationSection: ArraySlice<UInt8> = []
  ) -> String? {
    var inspector = TransportStreamInspector(checker: nil)
    inspector.consumeProgramTables(initializationSection)
    inspector.consume(bytes)
    let facts = inspector.finish()
    if facts.videoAccessUnits != 1 {
      return "the range holds \(facts.videoAccessUnits) video access units, not one"
    }
    return facts.startsWithKeyframe == true ? nil : "its access unit is not an IDR"
  }

  /// Why the clear bytes of an fMP4 I-frame range are not exactly one sync
  /// video sample, whole, of a moof the range holds whole; nil when they are.
  /// Samples are counted from each moof's track runs (ISO/IEC 14496-12
  /// §8.8.8); the mdat of the last fragment may be cut by the range. The
  /// samples' bytes are not read, so `cbcs` ranges need no key.
  public static func fragmentProblem(_ bytes: [UInt8], initSection: FragmentedInitSection) -> String? {
    var pictures: [(sync: Bool?, offset: Int)] = []
    var moofs = 0
    var at = 0
    while at + 8 <= bytes.count {
      var size = Int(BigEndian.u32(bytes, at))
      if size == 1, at + 16 <= bytes.count {
        size = Int(clamping: BigEndian.u64(bytes, at + 8))
      } else if size == 0 {
        size = bytes.count - at
      }
      guard size >= 8 else { return "box '\(ISOBox.fourCC(bytes, at + 4))' at offset \(at) has size \(size)" }
      let type = ISOBox.fourCC(bytes, at + 4)
      if type == "moof" {
        guard size <= bytes.count - at else { return "the range ends inside the moof at offset \(at)" }
        moofs += 1
        let moof = ISOBox(type: type, start: at, payload: at + 8, end: at + size)
        switch videoSamples(bytes, moof: moof, initSection: initSection) {
        case .success(let found): pictures += found
        case .failure(let problem): return problem.description
        }
      }
      at += size
    }
    guard moofs > 0 else { return "the range holds no moof" }
    guard pictures.count == 1, let picture = pictures.first else {
      return "the range holds \(pictures.count) whole video samples, not one"
    }
    return picture.sync == false ? "its sample at offset \(picture.offset) is not a sync sample" : nil
  }

  struct LayoutProblem: Error, CustomStringConvertible {
    var description: String
  }

  /// The video samples of `moof` that lie wholly inside `bytes`, each with
  /// whether it is a sync sample (nil when no flags say).
  private static func videoSamples(
    _ bytes: [UInt8], moof: ISOBox, initSection: FragmentedInitSection
  ) -> Result<[(sync: Bool?, offset: Int)], LayoutProblem> {
    var found: [(sync: Bool?, offset: Int)] = []
    do {
      for traf in try ISOBox.children(of: bytes, in: moof.payloadRange, context: "moof") where traf.type == "traf" {
        let layout = try TrackFragmentLayout(bytes, moof: moof, traf: traf, dataMayBeCut: true) {
          initSection.tracks[$0]?.defaultSize
        }
        guard let track = initSection.tracks[layout.trackID], track.kind != .audio else { continue }
        for (index, sample) in layout.samples.enumerated() where sample.upperBound <= bytes.count {
          let flags = index < layout.sampleFlags.count ? layout.sampleFlags[index] ?? track.defaultFlags : nil
          // sample_is_non_sync_sample (§8.8.3.1).
          found.append((sync: flags.map { $0 & 0x1_0000 == 0 }, offset: sample.lowerBound))
        }
      }
    } catch {
      return .failure(LayoutProblem(description: "its moof at offset \(moof.start) cannot be read: \(error)"))
    }
    return .success(found)
  }
}
