import Foundation
import Testing

@testable import HLSPackCore

/// Loading reads each byte a bounded number of times: a profile all on one
/// line (as templating tools write it) took time quadratic in that line's
/// length (2000 inputs: 4.9 s). bench/profile-load measures the figure in a
/// release build; this only guards against a relapse, with a wide margin.
@Suite struct ProfileLoadSpeedTests {
  /// A valid profile of `count` rungs, inputs, audio renditions and
  /// subtitle tracks, with no line break.
  static func minifiedProfile(count: Int) -> String {
    let rungs = (0..<count).map {
      #"{"name":"r\#($0)","width":640,"height":360,"bitrate":800000,"maxrate":900000,"fps":"30000/1001"}"#
    }
    let inputs = (0..<count).map { #""media/clip-\#($0).mp4""# }
    let audio = (0..<count).map { #"{"name":"Audio \#($0)","language":"en-a\#($0)","channels":2}"# }
    let subtitles = (0..<count).map { #"{"name":"Sub \#($0)","language":"en-s\#($0)","file":"subs/\#($0).vtt"}"# }
    return #"{"version":1,"inputs":[\#(inputs.joined(separator: ","))],"segment":{"duration":6},"#
      + #""video":[\#(rungs.joined(separator: ","))],"audio":[\#(audio.joined(separator: ","))],"#
      + #""subtitles":[\#(subtitles.joined(separator: ","))]}"#
  }

  /// CPU time of this thread, so that other work on the machine does not count.
  static func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  @Test func longMinifiedProfileLoadsInLinearTime() throws {
    let text = Self.minifiedProfile(count: 1000)
    #expect(text.utf8.count > 200_000 && !text.contains("\n"))
    let start = Self.threadCPUSeconds()
    let profile = try ProfileLoader.load(
      data: Data(text.utf8), file: "big.json", baseDirectory: URL(fileURLWithPath: "/profiles"))
    let seconds = Self.threadCPUSeconds() - start
    let counts = [profile.video.count, profile.inputs.count, profile.audioRenditions.count, profile.subtitles.count]
    #expect(counts == [1000, 1000, 1000, 1000])
    // Debug build: about 0.2 s of CPU now; the quadratic reader took minutes.
    // Under a sanitizer (scripts/sanitize sets its options) every access is
    // checked: 5.2 s were measured under AddressSanitizer.
    let environment = ProcessInfo.processInfo.environment
    let sanitized = environment["ASAN_OPTIONS"] != nil || environment["TSAN_OPTIONS"] != nil
    #expect(seconds < (sanitized ? 30 : 3), "\(seconds) s of CPU time")
  }
}
