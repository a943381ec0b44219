import Foundation

/// Reads and validates a profile file. Every rejection names the file and the
/// JSON path of the field, before any media work starts.
public enum ProfileLoader {
  public static let supportedVersion = 1
  /// x264 and x265 share these preset names.
  static let presets = [
    "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo",
  ]
  static let profiles: [VideoCodec: [String]] = [
    .h264: ["baseline", "main", "high"], .hevc: ["main", "main10"], .av1: ["main"],
  ]
  static let aacSampleRates = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000]
  /// Rung names become folder names; "keys" holds the key files.
  static let reservedNames: Set<String> = ["keys"]

  public static func load(contentsOf url: URL, environment: [String: String] = ProcessInfo.processInfo.environment)
    throws -> Profile
  {
    try load(
      root: document(contentsOf: url), file: url.path, baseDirectory: baseDirectory(of: url), environment: environment)
  }

  /// The profile file's JSON, before its fields are read (for a batch
  /// manifest's per-title settings, written into it first).
  public static func document(contentsOf url: URL) throws -> JSONValue {
    let file = url.path
    let data: Data
    do {
      data = Data(try SmallFile.read(file, limit: 16 << 20))
    } catch {
      throw ProfileError(file: file, path: "$", message: "cannot read the file \(error.reason)")
    }
    return try document(data: data, file: file)
  }

  /// A profile's relative paths are relative to its folder; for a profile
  /// that comes through a pipe (`/dev/fd/63`), to the current folder.
  public static func baseDirectory(of url: URL) -> URL {
    guard (try? FileStatus(path: url.path))?.kind == .namedPipe else { return url.deletingLastPathComponent() }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
  }

  public static func load(
    data: Data, file: String, baseDirectory: URL, environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> Profile {
    try load(root: document(data: data, file: file), file: file, baseDirectory: baseDirectory, environment: environment)
  }

  static func document(data: Data, file: String) throws -> JSONValue {
    let root: JSONValue
    do {
      root = try JSONValue.parse(data)
    } catch {
      throw ProfileError(file: file, path: error.path, message: "not valid JSON: \(error)")
    }
    return root
  }

  public static func load(
    root: JSONValue, file: String, baseDirectory: URL,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> Profile {
    var r = try FieldReader(root, file: file, path: "$")
    // Editors use "$schema" to find Profiles/profile.schema.json.
    _ = try r.string("$schema")

    let version = try r.required("version") { try $0.integer($1, in: 0...Int(Int32.max)) }
    guard version == supportedVersion else {
      throw r.error("version", "unsupported version \(version); this hlspack reads version \(supportedVersion)")
    }

    let inputs = try JoinedInputReader.read(r.array("inputs") ?? [], file: file, baseDirectory: baseDirectory)
    let output = try r.string("output").map { p -> URL in
      guard !p.isEmpty else { throw r.error("output", "must not be empty") }
      return resolve(p, against: baseDirectory)
    }

    let segment = try readSegment(try r.required("segment") { try $0.object($1) })
    guard let videoList = try r.array("video"), !videoList.isEmpty else {
      throw r.error("video", "is required: a list of one or more rungs")
    }
    let rungs = try readRungs(videoList, file: file, baseDirectory: baseDirectory)
    var audio: AudioSettings?
    var audioRenditions: [AudioRendition] = []
    switch r.value("audio") {
    case .array(let list)?: audioRenditions = try MediaGroupsReader.audioRenditions(list, file: file)
    case let value?: audio = try readAudio(try FieldReader(value, file: file, path: "$.audio"))
    case nil: break
    }
    if let mode = try r.oneOf("audio_mode", ["muxed", "group"]) {
      // The form of "audio" already says which; the mode must agree with it.
      if mode == "group", audio != nil {
        throw r.error("audio_mode", "\"group\" takes \"audio\" as a list of renditions")
      }
      if mode == "muxed", !audioRenditions.isEmpty {
        throw r.error(
          "audio_mode", "\"muxed\" takes \"audio\" as one object: a segment never carries two audio streams")
      }
    }
    let subtitles =
      try r.array("subtitles").map { try MediaGroupsReader.subtitles($0, file: file, baseDirectory: baseDirectory) }
      ?? []
    let audioOnlyVariants = try r.bool("audio_only_variants") ?? false
    if audioOnlyVariants, audioRenditions.isEmpty {
      throw r.error("audio_only_variants", "needs alternate audio renditions (\"audio\" as a list)")
    }
    let lowVariantBandwidth = try r.integer("low_variant_bandwidth", in: 1...2_000_000_000) ?? 265_000
    let labels = try r.bool("labels") ?? false
    if labels, rungs.contains(where: { $0.codec == .copy }) {
      throw r.error("labels", "are drawn on encoded pictures: a rung with codec \"copy\" has none")
    }
    try checkCopyRungs(rungs, audio: audio, alternates: !audioRenditions.isEmpty || !subtitles.isEmpty, file: file)
    let encryption =
      try r.object("encryption").map {
        try EncryptionReader.read($0, baseDirectory: baseDirectory, environment: environment)
      } ?? .none
    try r.finish()
    try checkCombinations(
      segment: segment, encryption: encryption, rungs: rungs, audio: audio, audioRenditions: audioRenditions, file: file
    )

    var profile = Profile(
      inputs: inputs.plain, output: output, segment: segment, video: rungs, audio: audio, encryption: encryption)
    profile.audioRenditions = audioRenditions
    profile.audioOnlyVariants = audioOnlyVariants
    profile.subtitles = subtitles
    profile.lowVariantBandwidth = lowVariantBandwidth
    profile.labels = labels
    try JoinedInputReader.checkCombinations(inputs.joined, profile: profile, file: file)
    profile.joinedInputs = inputs.joined
    return profile
  }

  static func readRungs(_ list: [JSONValue], file: String, baseDirectory: URL) throws -> [VideoRung] {
    var names: Set<String> = []
    return try list.enumerated().map { i, item in
      let rung = try readRung(try FieldReader(item, file: file, path: "$.video[\(i)]"), baseDirectory: baseDirectory)
      guard names.insert(rung.name).inserted else {
        throw ProfileError(file: file, path: "$.video[\(i)].name", message: "duplicate rung name \"\(rung.name)\"")
      }
      return rung
    }
  }

  /// Copy rungs package their sources as they are: all rungs copy or none
  /// does, and the audio follows the video.
  static func checkCopyRungs(_ rungs: [VideoRung], audio: AudioSettings?, alternates: Bool, file: String) throws {
    let copies = rungs.map { $0.codec == .copy }
    if copies.contains(true), copies.contains(false) {
      let i = copies.firstIndex(of: false) ?? 0
      throw ProfileError(
        file: file, path: "$.video[\(i)].codec",
        message: "copy rungs and encoded rungs cannot be mixed in one profile (their keyframes would not align)")
    }
    if let audio, copies.first == true, audio.codec != .copy {
      throw ProfileError(
        file: file, path: "$.audio.codec", message: "must be \"copy\" when the video rungs copy their sources")
    }
    if copies.first == true, alternates {
      throw ProfileError(
        file: file, path: "$.audio", message: "alternate audio and subtitles need encoded (not copy) video rungs")
    }
    if let audio, copies.first == false, audio.codec == .copy {
      throw ProfileError(file: file, path: "$.audio.codec", message: "\"copy\" needs video rungs with codec \"copy\"")
    }
  }

  /// What the containers and methods cannot do together.
  static func checkCombinations(
    segment: SegmentSettings, encryption: EncryptionSettings, rungs: [VideoRung], audio: AudioSettings?,
    audioRenditions: [AudioRendition], file: String
  ) throws {
    let audioCodecs = [audio?.codec].compactMap { $0 } + audioRenditions.map(\.settings.codec)
    if segment.container == .fmp4, audioCodecs.contains(.ac3) {
      // FFmpeg 5.1's mov muxer cannot write an AC-3 sample entry before it has seen a frame.
      throw ProfileError(
        file: file, path: "$.audio", message: "AC-3 audio in fMP4 is not supported yet; use container \"ts\" or AAC")
    }
    try checkAV1(segment: segment, encryption: encryption, rungs: rungs, file: file)
    if encryption.method == .sampleAES, segment.container == .fmp4 {
      try checkCBCS(encryption, file: file)
    }
    if segment.singleFile { try checkSingleFile(encryption, file: file) }
    try checkInitEncryption(encryption, container: segment.container, file: file)
    if encryption.method == .sampleAES, segment.container == .ts, let i = rungs.firstIndex(where: { $0.codec == .hevc })
    {
      // Apple's MPEG-2 stream encryption format defines H.264, AAC and AC-3 only.
      throw ProfileError(
        file: file, path: "$.video[\(i)].codec",
        message:
          "\"sample-aes\" in MPEG-TS encrypts H.264 only; HEVC needs container \"fmp4\" (cbcs) or method \"aes-128\"")
    }
    // Alternate audio renditions are encrypted with the video's key too (subtitles are not encrypted).
    let keyedRenditions = rungs.count + audioRenditions.count
    if encryption.iv == .sequence, encryption.scope == .asset, keyedRenditions > 1 {
      // Every rendition would encrypt its first block (the same PAT) under the same (key, IV):
      // docs/conformance.md, IVs.
      throw ProfileError(
        file: file, path: "$.encryption.iv",
        message:
          "\"sequence\" IVs with one key for \(keyedRenditions) renditions would repeat (key, IV) pairs; use \"random\" or scope \"rendition\""
      )
    }
  }

  /// SAMPLE-AES in fMP4 is `cbcs`: the key id and the constant IV live in the
  /// init segment's tenc, one per key (ISO/IEC 23001-7; docs/conformance.md, SAMPLE-AES in fMP4), so whatever needs
  /// several keys or IVs per rendition is refused until it is built.
  static func checkCBCS(_ encryption: EncryptionSettings, file: String) throws {
    if encryption.rotateEvery != nil {
      throw ProfileError(
        file: file, path: "$.encryption.rotate_every",
        message:
          "key rotation with \"sample-aes\" in fMP4 (cbcs) is not supported yet: every key period would need its own init segment and EXT-X-MAP"
      )
    }
    if encryption.clearLeadSegments > 0 {
      throw ProfileError(
        file: file, path: "$.encryption.clear_lead_segments",
        message:
          "a clear lead with \"sample-aes\" in fMP4 (cbcs) is not supported yet: it needs a second, clear sample description"
      )
    }
    if encryption.iv == .sequence {
      throw ProfileError(
        file: file, path: "$.encryption.iv",
        message:
          "\"sequence\" IVs cannot be used with \"sample-aes\" in fMP4 (cbcs): the IV is the init segment's constant IV; use \"random\" or a fixed IV"
      )
    }
  }

  static func readSegment(_ reader: FieldReader) throws -> SegmentSettings {
    var r = reader
    let duration = try r.required("duration") { try $0.number($1) }
    guard duration >= 1, duration <= 60 else {
      throw r.error("duration", "must be from 1 to 60 seconds, found \(formatNumber(duration))")
    }
    let container = try r.oneOf("container", Container.allCases.map(\.rawValue)).flatMap(Container.init) ?? .ts
    let iFrames = try r.bool("iframe_playlists") ?? true
    let checksums = try r.bool("checksums") ?? false
    let programDateTime = try r.string("program_date_time").map { text -> ProgramDateTimeStart in
      if text == "source" { return .source }
      guard let start = ProgramDateTime(iso8601: text) else {
        throw r.error(
          "program_date_time",
          "\"\(text)\" is neither \"source\" nor an ISO 8601 date-time with a time zone, such as \"2026-03-01T12:00:00Z\""
        )
      }
      return .fixed(start)
    }
    let singleFile = try r.bool("single_file") ?? false
    try r.finish()
    return SegmentSettings(
      duration: duration, container: container, iFramePlaylists: iFrames, checksums: checksums,
      programDateTime: programDateTime, singleFile: singleFile)
  }

  static func readRung(_ reader: FieldReader, baseDirectory: URL) throws -> VideoRung {
    var r = reader
    let name = try r.required("name") { try $0.quotedString($1) }
    guard isSafePathComponent(name) else {
      throw r.error(
        "name",
        "\"\(name)\" is not a safe folder name: use letters, digits, '.', '_' and '-', not starting with '.' or '-'")
    }
    guard !reservedNames.contains(name) else { throw r.error("name", "\"\(name)\" is reserved for the key folder") }
    let codec = try r.oneOf("codec", VideoCodec.allCases.map(\.rawValue)).flatMap(VideoCodec.init) ?? .h264
    if codec == .copy {
      // A copied rendition is what its source is: nothing to set but where it comes from.
      let source = try r.string("source").map { path -> URL in
        guard !path.isEmpty else { throw r.error("source", "must not be empty") }
        return resolve(path, against: baseDirectory)
      }
      for field in ["width", "height", "bitrate", "maxrate", "bufsize", "profile", "level", "preset", "fps", "fit", "video_range"]
      where r.wasGiven(field) {
        throw r.error(field, "does not apply to a rung with codec \"copy\" (the source's stream is taken as it is)")
      }
      try r.finish()
      return VideoRung(name: name, width: 0, height: 0, bitrate: 0, codec: .copy, preset: "", source: source)
    }
    if r.wasGiven("source") { throw r.error("source", "only rungs with codec \"copy\" take their own source") }
    let width = try r.required("width") { try $0.integer($1, in: 16...8192) }
    let height = try r.required("height") { try $0.integer($1, in: 16...8192) }
    guard width % 2 == 0 else { throw r.error("width", "must be even for 4:2:0 video, found \(width)") }
    guard height % 2 == 0 else { throw r.error("height", "must be even for 4:2:0 video, found \(height)") }
    let bitrate = try r.required("bitrate") { try $0.integer($1, in: 1...2_000_000_000) }
    guard bitrate >= 10_000 else { throw r.error("bitrate", "must be at least 10000 bit/s, found \(bitrate)") }
    let maxrate = try r.integer("maxrate", in: 1...2_000_000_000)
    if let maxrate, maxrate < bitrate {
      throw r.error("maxrate", "must be at least the bitrate (\(bitrate)), found \(maxrate)")
    }
    let bufsize = try r.integer("bufsize", in: 1000...4_000_000_000)
    if codec == .av1 { try refuseAV1Fields(r) }
    let profile = try r.oneOf("profile", profiles[codec] ?? [])
    let level = try readLevel(&r, allowed: CodecLevel.names(of: codec))
    let preset =
      if codec == .av1 { try readAV1Preset(&r) } else {
        try r.oneOf("preset", presets) ?? (codec == .hevc ? "fast" : "veryfast")
      }
    let fps = try readFrameRate(&r, "fps")
    let fit = try r.oneOf("fit", PictureFit.allCases.map(\.rawValue)).flatMap(PictureFit.init) ?? .stretch
    let videoRange = try readVideoRange(&r, codec: codec, profile: profile)
    try r.finish()
    // The source's frame rate is checked against the level once it is known (LadderTranscoder).
    if let limits = level.flatMap({ CodecLevel(codec: codec, name: $0) }),
      let problem = limits.pictureProblem(width: width, height: height)
        ?? fps.flatMap({ limits.rateProblem(width: width, height: height, rate: $0) })
        ?? limits.bitrateProblem(maxrate ?? bitrate, profile: profile)
    {
      throw r.error("level", "\(problem); set a higher level or a smaller rung")
    }
    var rung = VideoRung(
      name: name, width: width, height: height, bitrate: bitrate, maxrate: maxrate, bufsize: bufsize,
      codec: codec, profile: profile, level: level, preset: preset, fps: fps)
    rung.fit = fit
    rung.videoRange = videoRange
    return rung
  }

  static func readLevel(_ r: inout FieldReader, allowed: [String]) throws -> String? {
    guard let v = r.value("level") else { return nil }
    let text: String
    switch v {
    case .string(let s): text = s
    case .number(let n): text = (0..<100).contains(n) ? String(format: "%.1f", n) : formatNumber(n)
    default: throw r.error("level", "expected a level such as \"4.1\", found \(v.typeName)")
    }
    guard allowed.contains(text) else {
      throw r.error("level", "\"\(text)\" is not a level of this codec (\(allowed.joined(separator: ", ")))")
    }
    return text
  }

  /// Accepts 25, 12.5, 29.97, "30000/1001". The NTSC decimals map to their
  /// exact /1001 fractions; other decimals, up to three places, are exact (12.5 is 25/2).
  static func readFrameRate(_ r: inout FieldReader, _ key: String) throws -> FrameRate? {
    guard let v = r.value(key) else { return nil }
    // Some strings are frame rates ("30000/1001"): a wrong one is quoted, not called "a string".
    let found = if case .string(let s) = v { "\"\(s)\"" } else { v.typeName }
    let bad = r.error(
      key, "expected a frame rate from 1 to 120 such as 25, 12.5, 29.97 or \"30000/1001\", found \(found)")
    let rate: FrameRate
    switch v {
    case .number(let n):
      let ntsc: [Double: Int] = [23.976: 24000, 29.97: 30000, 47.952: 48000, 59.94: 60000, 119.88: 120000]
      let millis = (n * 1000).rounded()
      if let num = ntsc[millis / 1000] {
        rate = FrameRate(numerator: num, denominator: 1001)
      } else if abs(n * 1000 - millis) < 1e-6, n >= 1, n <= 120 {
        let common = Self.greatestCommonDivisor(Int(millis), 1000)
        rate = FrameRate(numerator: Int(millis) / common, denominator: 1000 / common)
      } else {
        let shown = n.rounded() == n && abs(n) < 1e9 ? String(Int(n)) : String(n)
        throw r.error(
          key,
          "\(shown) is not a frame rate from 1 to 120 with at most three decimals; give other rates as a fraction such as \"30000/1001\""
        )
      }
    case .string(let s):
      let parts = s.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
      guard parts.count == 2, let num = parts[0], let den = parts[1], num > 0, den > 0 else { throw bad }
      // Encoders take the rate as a fraction of 32-bit terms, and frame
      // positions multiply it by segment and frame counts: small terms keep
      // all of that exact and far from overflowing.
      guard num <= FrameRate.largestTerm, den <= FrameRate.largestTerm else {
        throw r.error(
          key, "\"\(s)\": a frame rate's numerator and denominator must be from 1 to \(FrameRate.largestTerm)")
      }
      let common = Self.greatestCommonDivisor(num, den)
      rate = FrameRate(numerator: num / common, denominator: den / common)
    default:
      throw bad
    }
    guard rate.value >= 1, rate.value <= 120 else { throw bad }
    return rate
  }

  private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int { b == 0 ? a : greatestCommonDivisor(b, a % b) }
}
