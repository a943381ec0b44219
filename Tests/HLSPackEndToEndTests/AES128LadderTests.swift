import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

/// The issue's acceptance checks on an AES-128 TS ladder, each made with a
/// tool other than hlspack: ffmpeg/ffprobe decode, openssl decrypts, and the
/// test's own TS reader inspects the clear bytes.
@Suite("AES-128 TS ladder")
struct AES128LadderTests {
  @Test func everyVariantDecodesWithTheSourceFrameCount() throws {
    let package = try EncodedPackage.aes128()
    #expect(package.master.variants.count == 2)
    for variant in package.master.variants {
      let path = package.folder.appendingPathComponent(variant.uri).path
      let decode = try Command.run(
        "ffmpeg", ["-v", "error", "-allowed_extensions", "ALL", "-i", path, "-f", "null", "-"])
      #expect(decode.status == 0)
      #expect(decode.stderr.isEmpty, "decode errors in \(variant.uri): \(decode.stderr)")
      let probe = try ffprobe(
        path, ["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames"])
      #expect(probe["nb_read_frames"] == String(Fixtures.clipFrames))
    }
  }

  @Test func masterAttributesMatchWhatFFprobeReads() throws {
    let package = try EncodedPackage.aes128()
    for variant in package.master.variants {
      let path = package.folder.appendingPathComponent(variant.uri).path
      let video = try ffprobe(
        path, ["-select_streams", "v:0", "-show_entries", "stream=width,height,profile,level,r_frame_rate"])
      #expect(variant.attributes["RESOLUTION"] == "\(video["width"] ?? "")x\(video["height"] ?? "")")
      let rate = try #require(video["r_frame_rate"]).split(separator: "/").compactMap { Double($0) }
      #expect(variant.attributes["FRAME-RATE"] == String(format: "%.3f", rate[0] / rate[1]))

      let codecs = try #require(variant.attributes["CODECS"]).split(separator: ",").map(String.init)
      let avc = try #require(codecs.first { $0.hasPrefix("avc1.") })
      let profileIDC = ["Baseline": "42", "Constrained Baseline": "42", "Main": "4d", "High": "64"][
        video["profile"] ?? ""]
      #expect(avc.dropFirst(5).prefix(2) == profileIDC ?? "?", "\(avc) vs ffprobe profile \(video["profile"] ?? "")")
      let level = try #require(Int(video["level"] ?? ""))
      #expect(avc.suffix(2) == String(format: "%02x", level))

      let audio = try ffprobe(path, ["-select_streams", "a:0", "-show_entries", "stream=profile,channels"])
      #expect(audio["profile"] == "LC" && codecs.contains("mp4a.40.2"))
      #expect(audio["channels"] == "2", "5.1 source should be downmixed to the profile's stereo")
    }
  }

  @Test func segmentsDecryptAloneStartWithIDRAndAlignAcrossRungs() throws {
    let package = try EncodedPackage.aes128()
    var startTimes: [[Int64]] = []
    var keyIVPairs = Set<String>()
    for variant in package.master.variants {
      let playlist = try package.playlist(variant.uri)
      var starts: [Int64] = []
      var lastCC: [Int: Int] = [:]
      for (index, segment) in playlist.segments.enumerated() {
        let key = try #require(segment.keyAttributes)
        #expect(key["METHOD"] == "AES-128")
        let iv = try #require(key["IV"])
        #expect(iv.wholeMatch(of: /0x[0-9A-F]{32}/) != nil)
        #expect(keyIVPairs.insert("\(key["URI"] ?? "")|\(iv)").inserted, "(key, IV) reused")

        let clear = try package.clearSegment(variant: variant.uri, segment, index: index)
        let encryptedSize =
          try FileManager.default.attributesOfItem(
            atPath: package.folder.appendingPathComponent(variant.uri).deletingLastPathComponent()
              .appendingPathComponent(segment.uri).path)[.size] as? Int
        #expect(encryptedSize == 16 * (clear.count / 16 + 1), "PKCS#7 size rule")

        let ts = try TransportStream(clear)
        #expect([0x00, 0x11].contains(ts.packets[0].pid), "segment opens with PSI")
        let video = try #require(ts.videoPID)
        let first = try #require(ts.pesUnits(pid: video).first)
        let types = TransportStream.nalTypes(first.data)
        let idr = try #require(types.firstIndex(of: 5), "first access unit of \(segment.uri) has no IDR: \(types)")
        #expect(!types[..<idr].contains(1))
        starts.append(try #require(first.pts))

        // Continuity counters run on from the previous segment (RFC 8216bis §3).
        for packet in ts.packets where packet.hasPayload {
          if let last = lastCC[packet.pid] {
            #expect(packet.continuityCounter == (last + 1) % 16, "CC break on PID \(packet.pid) in \(segment.uri)")
          }
          lastCC[packet.pid] = packet.continuityCounter
        }
      }
      // EXTINF equals the PTS distance to the next segment.
      for (segment, next) in zip(playlist.segments, starts.dropFirst()) {
        let index = playlist.segments.firstIndex { $0.uri == segment.uri } ?? 0
        #expect(abs(segment.duration - Double(next - starts[index]) / 90_000) < 0.001)
      }
      startTimes.append(starts)
    }
    #expect(
      startTimes.count == 2 && startTimes[0] == startTimes[1], "segment start PTS differ across rungs: \(startTimes)")
    #expect(startTimes[0].count == 4)
  }

  /// ISO/IEC 13818-1's decoder model: the clock (PCR) runs behind the decode
  /// times, so every access unit has arrived when it is due. libavformat's
  /// default put each PCR at its own PES's DTS, so every video frame and nearly
  /// every audio frame arrived 10-80 ms late.
  @Test func everyAccessUnitArrivesBeforeItsDecodeTime() throws {
    let package = try EncodedPackage.aes128()
    for variant in package.master.variants {
      let playlist = try package.playlist(variant.uri)
      for (index, segment) in playlist.segments.enumerated() {
        let ts = try TransportStream(try package.clearSegment(variant: variant.uri, segment, index: index))
        #expect(ts.elementaryStreams.count == 2)
        for stream in ts.elementaryStreams {
          let leads = ts.decodeLeads(pid: stream.pid)
          #expect(!leads.isEmpty, "no PES with a clock on PID \(stream.pid) in \(segment.uri)")
          // About FFmpeg's 0.7 s mux delay, less what an access unit takes to arrive.
          #expect(
            leads.allSatisfy { $0 > 0.1 && $0 < 1 },
            "PID \(stream.pid) in \(segment.uri): leads \(leads.min() ?? 0)...\(leads.max() ?? 0) s")
        }
      }
    }
  }

  /// Every PES states its length when it fits the 16-bit field (ISO/IEC
  /// 13818-1 §2.4.3.7): with 0 (unbounded) VLC 3.0 never showed the last
  /// picture of a stream, and FFmpeg's SAMPLE-AES decryption lost one more
  /// access unit at the end of the file.
  @Test func everyPESThatFitsStatesItsLength() throws {
    let package = try EncodedPackage.aes128()
    for variant in package.master.variants {
      let playlist = try package.playlist(variant.uri)
      for (index, segment) in playlist.segments.enumerated() {
        let ts = try TransportStream(try package.clearSegment(variant: variant.uri, segment, index: index))
        for stream in ts.elementaryStreams {
          for pes in ts.pesLengths(pid: stream.pid) {
            let expected = pes.actual <= 0xFFFF ? pes.actual : 0
            #expect(pes.declared == expected, "PID \(stream.pid) in \(variant.uri) \(segment.uri): \(pes)")
          }
        }
      }
    }
  }

  @Test func bandwidthAttributesAreWithinTenPercentOfTheMeasuredRates() throws {
    let package = try EncodedPackage.aes128()
    for variant in package.master.variants {
      let playlist = try package.playlist(variant.uri)
      let base = package.folder.appendingPathComponent(variant.uri).deletingLastPathComponent()
      let sizes = try playlist.segments.map {
        try #require(
          try FileManager.default.attributesOfItem(atPath: base.appendingPathComponent($0.uri).path)[.size] as? Int)
      }
      let target = try #require(Double(playlist.values(of: "#EXT-X-TARGETDURATION").first ?? ""))
      let measured = Self.peakAndAverage(sizes: sizes, durations: playlist.segments.map(\.duration), target: target)
      let bandwidth = try #require(Double(variant.attributes["BANDWIDTH"] ?? ""))
      let average = try #require(Double(variant.attributes["AVERAGE-BANDWIDTH"] ?? ""))
      #expect(bandwidth >= measured.peak.rounded(.down))
      #expect(abs(bandwidth - measured.peak) <= 0.1 * measured.peak)
      #expect(abs(average - measured.average) <= 0.1 * measured.average)
    }
  }

  /// The RFC 8216bis §4.1 window, written here independently of the product.
  static func peakAndAverage(sizes: [Int], durations: [Double], target: Double) -> (peak: Double, average: Double) {
    var peak = 0.0
    for i in sizes.indices {
      for j in i..<sizes.count {
        let d = durations[i...j].reduce(0, +)
        guard d >= 0.5 * target, d <= 1.5 * target + 0.5 else { continue }
        peak = max(peak, Double(sizes[i...j].reduce(0, +)) * 8 / d)
      }
    }
    let average = Double(sizes.reduce(0, +)) * 8 / durations.reduce(0, +)
    return (peak, average)
  }

  @Test func keyFileIsSixteenBytesReadableByTheOwnerOnly() throws {
    let package = try EncodedPackage.aes128()
    let keys = try FileManager.default.contentsOfDirectory(atPath: package.folder.appendingPathComponent("keys").path)
    #expect(keys.count == 1)
    let attributes = try FileManager.default.attributesOfItem(
      atPath: package.folder.appendingPathComponent("keys/\(keys[0])").path)
    #expect(attributes[.size] as? Int == 16)
    #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o600)
  }

  @Test func mediaPlaylistsFollowTheVODRules() throws {
    let package = try EncodedPackage.aes128()
    for variant in package.master.variants {
      let playlist = try package.playlist(variant.uri)
      #expect(playlist.lines.first == "#EXTM3U")
      #expect(playlist.values(of: "#EXT-X-PLAYLIST-TYPE") == ["VOD"])
      #expect(playlist.lines.last == "#EXT-X-ENDLIST")
      #expect(playlist.values(of: "#EXT-X-MEDIA-SEQUENCE") == ["0"])
      let target = try #require(Int(playlist.values(of: "#EXT-X-TARGETDURATION").first ?? ""))
      #expect(Double(target) == playlist.segments.map(\.duration).max()?.rounded(.up))
      #expect(playlist.values(of: "#EXT-X-VERSION") == ["3"])
    }
    #expect(package.master.lines.contains("#EXT-X-INDEPENDENT-SEGMENTS"))
  }
}

/// `ffprobe -of default=noprint_wrappers=1` output as key → value.
func ffprobe(_ path: String, _ arguments: [String]) throws -> [String: String] {
  let result = try Command.run(
    "ffprobe", ["-v", "error", "-allowed_extensions", "ALL"] + arguments + ["-of", "default=noprint_wrappers=1", path])
  guard result.status == 0 else { throw FixtureError("ffprobe \(path): \(result.stderr)") }
  var values: [String: String] = [:]
  for line in result.text.split(separator: "\n") {
    let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
    if parts.count == 2 { values[parts[0]] = parts[1] }
  }
  return values
}
