import Foundation
import HLSPackTestSupport
import Testing

/// CODECS audio entries against the bytes, on packages of the ffmpeg CLI's
/// hls muxer (AAC-LC, AC-3, E-AC-3 in TS and fMP4): the declared entry
/// passes, a wrong one is `variant.codecs-audio-mismatch` and nothing else.
@Suite struct VerifyAudioCodecsTests {
  /// 4 s of 160x90 H.264 and stereo `codec` audio, 2 s segments.
  func package(_ codec: String, container: String) throws -> URL {
    let folder = try ScratchFolder.make("audiocodecs\(codec)\(container)")
    let made = try Command.run(
      "ffmpeg",
      [
        "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=4",
        "-f", "lavfi", "-i", "sine=d=4:r=48000", "-ac", "2", "-c:v", "libx264", "-preset", "ultrafast", "-g", "25",
        "-c:a", codec, "-b:a", "96k", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
        "-hls_segment_type", container, "-master_pl_name", "master.m3u8",
        folder.appendingPathComponent("index.m3u8").path,
      ])
    try #require(made.status == 0, "\(made.stderr)")
    return folder
  }

  func codecsRules(_ folder: URL, declaring replacement: (from: String, to: String)? = nil) throws -> [String] {
    let master = folder.appendingPathComponent("master.m3u8")
    if let replacement {
      let text = try String(contentsOf: master, encoding: .utf8)
      try #require(text.contains(replacement.from))
      try Data(text.replacingOccurrences(of: replacement.from, with: replacement.to).utf8).write(to: master)
    }
    let run = try Command.run(try Fixtures.executable(), ["verify", "--json", master.path])
    let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
    return (json["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }.filter {
      $0.hasPrefix("variant.codecs")
    }
  }

  @Test(arguments: ["mpegts", "fmp4"])
  func enhancedAC3DeclaredAC3(container: String) throws {
    let folder = try package("eac3", container: container)
    #expect(try codecsRules(folder) == [])
    #expect(try codecsRules(folder, declaring: (",ec-3\"", ",ac-3\"")) == ["variant.codecs-audio-mismatch"])
  }

  @Test(arguments: ["mpegts", "fmp4"])
  func ac3DeclaredEnhancedAC3(container: String) throws {
    let folder = try package("ac3", container: container)
    #expect(try codecsRules(folder) == [])
    #expect(try codecsRules(folder, declaring: (",ac-3\"", ",ec-3\"")) == ["variant.codecs-audio-mismatch"])
  }

  /// FFmpeg's native encoder makes AAC-LC: no SBR in its frames, which libavcodec
  /// reads to tell it from HE-AAC signalled implicitly.
  @Test(arguments: ["mpegts", "fmp4"])
  func aacLCDeclaredHEAAC(container: String) throws {
    let folder = try package("aac", container: container)
    #expect(try codecsRules(folder) == [])
    #expect(try codecsRules(folder, declaring: ("mp4a.40.2", "mp4a.40.5")) == ["variant.codecs-audio-mismatch"])
    #expect(try codecsRules(folder, declaring: ("mp4a.40.5", "mp4a.40.29")) == ["variant.codecs-audio-mismatch"])
  }
}
