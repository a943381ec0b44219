import Foundation
import HLSPackTestSupport
import Testing

/// The clean packages `VerifyTests` breaks, and the edits that break them.
extension VerifyTests {
  static let lock = NSLock()
  nonisolated(unsafe) static var cleanPackages: [String: URL] = [:]

  static let copied = #""video": [{"name": "main", "codec": "copy"}], "audio": {"codec": "copy"}"#

  /// The packages the tests break: container, encryption and media of each.
  /// Alternate audio and subtitles need an encoded video rung.
  static let kinds: [String: (container: String, encryption: String, media: String)] = [
    "ts": ("ts", #"{"method": "aes-128"}"#, copied),
    "fmp4": ("fmp4", #"{"method": "aes-128"}"#, copied),
    "ts-sequence-iv": ("ts", #"{"method": "aes-128", "iv": "sequence"}"#, copied),
    "ts-clear": ("ts", #"{"method": "none"}"#, copied),
    "ts-audio-group": (
      "ts", #"{"method": "aes-128"}"#,
      #""video": [{"name": "main", "width": 320, "height": 180, "bitrate": 300000, "preset": "ultrafast"}], "#
        + #""audio": [{"name": "English", "language": "en", "codec": "aac", "bitrate": 96000, "channels": 2, "sample_rate": 48000}], "#
        + #""subtitles": [{"name": "English", "language": "en", "file": "subs.vtt"}]"#
    ),
    // An audio-only variant whose URI is the default member of a two-member AUDIO group.
    "ts-audio-only": (
      "ts", #"{"method": "aes-128"}"#,
      #""video": [{"name": "main", "width": 320, "height": 180, "bitrate": 300000, "preset": "ultrafast"}], "#
        + #""audio": [{"name": "English", "language": "en", "codec": "aac", "bitrate": 64000, "default": true}, "#
        + #"{"name": "Deutsch", "language": "de", "codec": "aac", "bitrate": 128000}], "audio_only_variants": true"#
    ),
    // One encoded rung with AAC muxed in, cbcs.
    "fmp4-cbcs": (
      "fmp4", #"{"method": "sample-aes"}"#,
      #""video": [{"name": "main", "width": 320, "height": 180, "bitrate": 300000, "preset": "ultrafast"}], "#
        + #""audio": {"codec": "aac", "bitrate": 96000, "channels": 2, "sample_rate": 48000}"#
    ),
    // One HEVC rung with AAC muxed in, clear: x265 codes 180 lines as 184 and crops them.
    "fmp4-hevc": (
      "fmp4", #"{"method": "none"}"#,
      #""video": [{"name": "main", "codec": "hevc", "width": 320, "height": 180, "bitrate": 300000, "preset": "ultrafast"}], "#
        + #""audio": {"codec": "aac", "bitrate": 96000, "channels": 2, "sample_rate": 48000}"#
    ),
    // AC-3 muxed in, SAMPLE-AES: syncframes carry CRCs.
    "ts-sample-aes-ac3": (
      "ts", #"{"method": "sample-aes"}"#,
      #""video": [{"name": "main", "width": 320, "height": 180, "bitrate": 300000, "preset": "ultrafast"}], "#
        + #""audio": {"codec": "ac3", "channels": 6, "bitrate": 384000}"#
    ),
    // Two encoded rungs with AAC muxed in, SAMPLE-AES: for the rules across variants.
    "ts-sample-aes": (
      "ts", #"{"method": "sample-aes"}"#,
      #""video": [{"name": "main", "width": 320, "height": 180, "bitrate": 300000, "preset": "ultrafast"}, "#
        + #"{"name": "high", "width": 480, "height": 270, "bitrate": 500000, "preset": "ultrafast"}], "#
        + #""audio": {"codec": "aac", "bitrate": 96000, "channels": 2, "sample_rate": 48000}"#
    ),
  ]

  /// One clean asset per kind, made once per test run: 2 s segments of the
  /// clip's 1 s GOPs, one rendition `main`.
  static func cleanPackage(_ kind: String) throws -> URL {
    try lock.withLock {
      if let made = cleanPackages[kind] { return made }
      let (container, encryption, media) = try #require(kinds[kind])
      let scratch = try ScratchFolder.make("verify\(kind)")
      try Data("WEBVTT\n\n00:00:00.500 --> 00:00:03.000\nHello\n".utf8).write(
        to: scratch.appendingPathComponent("subs.vtt"))
      let profile = scratch.appendingPathComponent("profile.json")
      try Data(
        """
        {"version": 1, "segment": {"duration": 2, "container": "\(container)"},
         \(media), "encryption": \(encryption)}
        """.utf8
      ).write(to: profile)
      let output = scratch.appendingPathComponent("out")
      let run = try Command.run(
        try Fixtures.executable(),
        ["encode", "--profile", profile.path, "--output", output.path, try Fixtures.clip().path])
      guard run.status == 0 else { throw FixtureError("encode failed: \(run.stderr)") }
      let asset = output.appendingPathComponent("clip")
      cleanPackages[kind] = asset
      return asset
    }
  }

  /// The exit status and the distinct rule ids of `verify --json`, in report order.
  func verify(_ package: URL) throws -> (status: Int32, rules: [String]) {
    let run = try Command.run(try Fixtures.executable(), ["verify", "--json", package.path])
    let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stderr)")
    let findings = try #require(object["findings"] as? [[String: Any]])
    var rules: [String] = []
    for case let rule as String in findings.map({ $0["rule"] }) where !rules.contains(rule) { rules.append(rule) }
    return (run.status, rules)
  }

  /// A copy of the clean package (modes kept), broken by `breakIt`, verified.
  func broken(_ kind: String = "ts", _ breakIt: (URL) throws -> Void) throws -> (status: Int32, rules: [String]) {
    let copy = try ScratchFolder.make("broken").appendingPathComponent("clip")
    let copied = try Command.run("cp", ["-a", try Self.cleanPackage(kind).path, copy.path])
    guard copied.status == 0 else { throw FixtureError(copied.stderr) }
    try breakIt(copy)
    return try verify(copy)
  }

  func edit(_ file: URL, sourceLocation: SourceLocation = #_sourceLocation, _ change: (String) -> String) throws {
    let before = try String(contentsOf: file, encoding: .utf8)
    let after = change(before)
    #expect(after != before, "the edit changed nothing in \(file.lastPathComponent)", sourceLocation: sourceLocation)
    try Data(after.utf8).write(to: file)
  }

  func keyFile(_ package: URL) throws -> URL {
    let keys = package.appendingPathComponent("keys")
    let name = try #require(
      try FileManager.default.contentsOfDirectory(atPath: keys.path).sorted().first { $0.hasSuffix(".key") })
    return keys.appendingPathComponent(name)
  }

  /// Replaces a file's bytes in place, so that its mode stays.
  func overwrite(_ file: URL, with bytes: [UInt8]) throws {
    let handle = try FileHandle(forWritingTo: file)
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data(bytes))
    try handle.close()
  }

  /// The explicit IVs of a media playlist's EXT-X-KEY tags, as written.
  func writtenIVs(_ playlist: URL) throws -> [String] {
    try String(contentsOf: playlist, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("#EXT-X-KEY:") }
      .compactMap { $0.components(separatedBy: "IV=").last.map { String($0.prefix { $0 != "," }) } }
  }

  /// Scales the first EXT-X-STREAM-INF's (or other `tag`'s) `name` attribute by `factor`.
  func scaleVariantAttribute(
    _ name: String, by factor: Double, in master: URL, tag: String = "#EXT-X-STREAM-INF:"
  ) throws {
    try edit(master) { text in
      var lines = text.components(separatedBy: "\n")
      guard let index = lines.firstIndex(where: { $0.hasPrefix(tag) }) else { return text }
      let attributes = lines[index].dropFirst(tag.count).components(separatedBy: ",").map {
        attribute in
        guard attribute.hasPrefix(name + "="), let value = Double(attribute.dropFirst(name.count + 1)) else {
          return attribute
        }
        return "\(name)=\(Int(value * factor))"
      }
      lines[index] = tag + attributes.joined(separator: ",")
      return lines.joined(separator: "\n")
    }
  }

  /// The first EXT-X-MEDIA line repeated after itself, changed by `change`.
  func repeatRendition(in master: URL, _ change: @escaping (String) -> String) throws {
    try edit(master) { text in
      text.split(separator: "\n", omittingEmptySubsequences: false)
        .flatMap { $0.hasPrefix("#EXT-X-MEDIA:") ? [String($0), change(String($0))] : [String($0)] }.joined(
          separator: "\n")
    }
  }
}

extension VerifyTests {
  /// Adds `ticks` (90 kHz) to every PTS and DTS of a clear-headed MPEG-TS
  /// segment's PES packets, in place, modulo 2^33 (ISO/IEC 13818-1 §2.4.3.7).
  func shiftTimestamps(_ segment: URL, by ticks: Int64) throws {
    try rewriteTimestamps(segment) { $0 + ticks }
  }

  /// The segment's first PES timestamp (PTS or DTS, in file order).
  func firstTimestamp(_ segment: URL) throws -> Int64 {
    var first: Int64?
    try rewriteTimestamps(segment) {
      first = first ?? $0
      return $0
    }
    return try #require(first, "\(segment.lastPathComponent) has no PES timestamp")
  }

  private func rewriteTimestamps(_ segment: URL, _ change: (Int64) -> Int64) throws {
    var bytes = [UInt8](try Data(contentsOf: segment))
    for packet in stride(from: 0, to: bytes.count - 187, by: 188) where bytes[packet + 1] & 0x40 != 0 {
      let control = bytes[packet + 3] >> 4 & 3
      let start = packet + (control & 2 != 0 ? 5 + Int(bytes[packet + 4]) : 4)
      guard control & 1 != 0, start + 19 <= packet + 188,
        bytes[start..<start + 3].elementsEqual([0, 0, 1])
      else { continue }
      let flags = bytes[start + 7] >> 6
      for (present, offset) in [(flags & 2 != 0, 9), (flags == 3, 14)] where present {
        let at = start + offset
        var value = Int64(bytes[at] >> 1 & 7) << 30 | Int64(bytes[at + 1]) << 22 | Int64(bytes[at + 2] >> 1) << 15
        value |= Int64(bytes[at + 3]) << 7 | Int64(bytes[at + 4] >> 1)
        value = change(value)
        bytes[at] = bytes[at] & 0xF1 | UInt8(value >> 29 & 0x0E)
        bytes[at + 1] = UInt8(value >> 22 & 0xFF)
        bytes[at + 2] = UInt8(value >> 14 & 0xFE) | 1
        bytes[at + 3] = UInt8(value >> 7 & 0xFF)
        bytes[at + 4] = UInt8(value << 1 & 0xFE) | 1
      }
    }
    try overwrite(segment, with: bytes)
  }
}

extension VerifyTests {
  /// The payload range of the first box of `type` found by walking `path`
  /// down from the top level (each step the first box of that type).
  func boxPath(_ bytes: [UInt8], _ path: [String]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var scope = 0..<bytes.count
    for type in path {
      var at = scope.lowerBound
      var found: Range<Int>?
      while at + 8 <= scope.upperBound {
        let size = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
        guard size >= 8 else { break }
        if String(decoding: bytes[at + 4..<at + 8], as: UTF8.self) == type {
          found = at..<at + size
          break
        }
        at += size
      }
      guard let found else { return [] }
      ranges.append(found)
      // Sample descriptions: stsd has 8 bytes of version, flags and entry_count.
      scope = (found.lowerBound + (type == "stsd" ? 16 : 8))..<found.upperBound
    }
    return ranges
  }

  /// Adds `delta` to the 32-bit size of each box that starts at `starts`.
  func grow(_ bytes: inout [UInt8], boxesAt starts: [Int], by delta: Int) {
    for start in starts {
      let size = bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) } + delta
      for i in 0..<4 { bytes[start + i] = UInt8(size >> (24 - 8 * i) & 0xFF) }
    }
  }
}
