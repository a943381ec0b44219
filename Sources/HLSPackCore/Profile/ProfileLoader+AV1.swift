/// The fields of an AV1 rung (`"codec": "av1"`, libsvtav1) and what it
/// cannot be combined with.
extension ProfileLoader {
  /// SVT-AV1's presets run from 0 (slowest) to 13 (fastest); 10 is a
  /// live-speed default for a ladder of several rungs.
  static let av1Presets = 0...13
  static let av1DefaultPreset = 10

  /// `preset` for an AV1 rung: SVT-AV1's preset number, not an x264 name.
  static func readAV1Preset(_ r: inout FieldReader) throws -> String {
    guard let value = r.value("preset") else { return String(av1DefaultPreset) }
    guard case .number(let n) = value, n.rounded() == n, av1Presets.contains(Int(exactly: n) ?? -1) else {
      let found = if case .string(let s) = value { "\"\(s)\"" } else { value.typeName }
      throw r.error(
        "preset",
        "an av1 rung takes SVT-AV1's preset number, \(av1Presets.lowerBound) (slowest) to \(av1Presets.upperBound) (fastest), found \(found)"
      )
    }
    return String(Int(n))
  }

  /// What an AV1 rung does not take: a level (SVT-AV1 writes the one the
  /// picture and frame rate need) and a VBV cap (hlspack encodes AV1 rungs
  /// as SVT-AV1's VBR to their bitrate, with no cap).
  static func refuseAV1Fields(_ r: FieldReader) throws {
    let vbr = "hlspack encodes an av1 rung as SVT-AV1's VBR to its bitrate, without a VBV cap"
    for (field, reason) in [
      ("level", "SVT-AV1 writes the level the rung's picture and frame rate need"), ("maxrate", vbr), ("bufsize", vbr),
    ] where r.wasGiven(field) {
      throw r.error(field, "does not apply to an av1 rung: \(reason)")
    }
  }

  /// AV1 goes into fMP4 only (`av01`, AV1 Codec ISO Media File Format
  /// Binding), clear or AES-128. `cbcs` is refused: the binding's subsample
  /// rule (§7) protects each tile's data only, so the frame header of every
  /// frame OBU must be parsed to its end, which hlspack does not do.
  static func checkAV1(segment: SegmentSettings, encryption: EncryptionSettings, rungs: [VideoRung], file: String)
    throws
  {
    guard let i = rungs.firstIndex(where: { $0.codec == .av1 }) else { return }
    if segment.container != .fmp4 {
      throw ProfileError(
        file: file, path: "$.video[\(i)].codec",
        message:
          "\"av1\" needs container \"fmp4\" ($.segment.container): HLS carries AV1 in fragmented MP4 only, not in MPEG-TS"
      )
    }
    if encryption.method == .sampleAES {
      throw ProfileError(
        file: file, path: "$.video[\(i)].codec",
        message:
          "\"av1\" cannot be encrypted with \"sample-aes\" (cbcs) yet: AV1's subsample encryption leaves every frame header clear and protects tile data only, which needs a frame header parser hlspack does not have; use method \"aes-128\""
      )
    }
  }
}
