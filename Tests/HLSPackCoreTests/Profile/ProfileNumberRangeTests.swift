import Foundation
import Testing

@testable import HLSPackCore

private typealias P = ProfileJSON

private func load(_ json: String) throws -> Profile {
  try ProfileLoader.load(data: Data(json.utf8), file: "test.json", baseDirectory: URL(fileURLWithPath: "/profiles"))
}

/// Every number a profile gives is range-checked at load, naming its field,
/// and whatever passes is safe for the arithmetic that follows (32-bit
/// encoder fields, frame and segment positions, sample counts).
@Suite struct ProfileNumberRangeTests {
  static let huge = ["1e300", "-1e300", "9223372036854775807", "-9223372036854775808", "18446744073709551616"]
  static let renditions = #"[{"name": "English", "language": "en"}]"#

  /// Each field with values past both ends, fractions and the 64-bit extremes.
  static let refused: [Rejection] =
    (["-1", "1.5"] + huge).map {
      Rejection(P.profile(["version": $0]), "$.version", "expected a whole number from 0 to 2147483647")
    }
    + ["0", "2"].map { Rejection(P.profile(["version": $0]), "$.version", "unsupported version") }
    + (["0", "0.999", "60.001", "-1"] + huge).map {
      Rejection(P.profile(["segment": #"{"duration": \#($0)}"#]), "$.segment.duration", "must be from 1 to 60 seconds")
    }
    + ["width", "height"].flatMap { field in
      (["14", "8194", "-640", "640.5"] + huge).map {
        Rejection(P.profile(rung: [field: $0]), "$.video[1].\(field)", "expected a whole number from 16 to 8192")
      } + [Rejection(P.profile(rung: [field: "642.0000001"]), "$.video[1].\(field)", "whole number")]
    }
    + (["0", "-1", "2000000001"] + huge).map {
      Rejection(P.profile(rung: ["bitrate": $0]), "$.video[1].bitrate", "from 1 to 2000000000")
    }
    + [Rejection(P.profile(rung: ["bitrate": "9999"]), "$.video[1].bitrate", "at least 10000")]
    + (["0", "2000000001"] + huge).map {
      Rejection(P.profile(rung: ["maxrate": $0]), "$.video[1].maxrate", "from 1 to 2000000000")
    }
    + [Rejection(P.profile(rung: ["maxrate": "2999999"]), "$.video[1].maxrate", "at least the bitrate")]
    + (["999", "4000000001", "-1"] + huge).map {
      Rejection(P.profile(rung: ["bufsize": $0]), "$.video[1].bufsize", "from 1000 to 4000000000")
    }
    + (["0", "0.999", "120.001", "121", "-25", "1e-300"] + huge).map {
      Rejection(P.profile(rung: ["fps": $0]), "$.video[1].fps", "frame rate from 1 to 120")
    }
    + ["0/1", "1/0", "-30/1", "121/1", "1/2", "30/1/1", "30//1", "/1", "", "99999999999999999999/1"].map {
      Rejection(P.profile(rung: ["fps": "\"\($0)\""]), "$.video[1].fps", "expected a frame rate from 1 to 120")
    }
    // Fractions whose value is in range but whose terms overflow 32-bit encoder fields or frame arithmetic.
    + [
      "4294967296/4294967296", "2147483648/1073741824", "9223372036854775807/9223372036854775807", "1000001/1000000",
      "30000/1000001",
    ].map {
      Rejection(
        P.profile(rung: ["fps": "\"\($0)\""]), "$.video[1].fps", "numerator and denominator must be from 1 to 1000000")
    }
    + (["-1", "0"] + huge).map {
      Rejection(P.profile(rung: ["level": $0]), "$.video[1].level", "is not a level of this codec")
    }
    + (["7999", "512001", "0"] + huge).map {
      Rejection(P.profile(["audio": #"{"bitrate": \#($0)}"#]), "$.audio.bitrate", "from 8000 to 512000")
    }
    + (["31999", "640001"] + huge).map {
      Rejection(
        P.profile(["audio": #"{"codec": "ac3", "bitrate": \#($0)}"#]), "$.audio.bitrate", "from 32000 to 640000")
    }
    + (["0", "9", "-1", "2.5"] + huge).map {
      Rejection(P.profile(["audio": #"{"channels": \#($0)}"#]), "$.audio.channels", "from 1 to 8")
    }
    + ["7"].map {
      Rejection(P.profile(["audio": #"{"codec": "ac3", "channels": \#($0)}"#]), "$.audio.channels", "from 1 to 6")
    }
    + (["7999", "96001", "0"] + huge).map {
      Rejection(P.profile(["audio": #"{"sample_rate": \#($0)}"#]), "$.audio.sample_rate", "from 8000 to 96000")
    }
    + [Rejection(P.profile(["audio": #"{"sample_rate": 44101}"#]), "$.audio.sample_rate", "not an AAC sample rate")]
    + (["-1", "64", "0.5"] + huge).map {
      Rejection(
        P.profile(["audio": #"[{"name": "English", "language": "en", "track": \#($0)}]"#]), "$.audio[0].track",
        "source audio track's index")
    }
    + (["0", "2000000001"] + huge).map {
      Rejection(P.profile(["low_variant_bandwidth": $0]), "$.low_variant_bandwidth", "from 1 to 2000000000")
    }
    + (["0", "1000001", "-1"] + huge).map {
      Rejection(
        P.profile(["encryption": #"{"method": "aes-128", "rotate_every": \#($0)}"#]), "$.encryption.rotate_every",
        "from 1 to 1000000")
    }
    + (["-1", "1000001"] + huge).map {
      Rejection(
        P.profile(["encryption": #"{"method": "aes-128", "clear_lead_segments": \#($0)}"#]),
        "$.encryption.clear_lead_segments",
        "from 0 to 1000000")
    }

  @Test(arguments: refused)
  func refusesNamingTheField(_ c: Rejection) {
    let error = #expect(throws: ProfileError.self) { try load(c.json) }
    #expect(error?.path == c.path, "\(String(describing: error))")
    #expect(error?.message.contains(c.message) == true, "\(String(describing: error))")
  }

  /// The ends of every range load, and what is computed from them downstream stays exact.
  static let largest =
    #"{"name": "high", "width": 8192, "height": 8192, "bitrate": 2000000000, "maxrate": 2000000000, "bufsize": 4000000000}"#
  static let smallest = #"{"name": "low", "width": 16, "height": 16, "bitrate": 10000, "bufsize": 1000}"#

  @Test(arguments: [
    (#""1000000/999999""#, FrameRate(numerator: 1_000_000, denominator: 999_999)),
    (#""999999/8335""#, FrameRate(numerator: 999_999, denominator: 8335)),
    (#""1000000/1000000""#, FrameRate(numerator: 1, denominator: 1)),
    (#""2000/1000""#, FrameRate(numerator: 2, denominator: 1)),
    (#""1/1""#, FrameRate(numerator: 1, denominator: 1)),
    ("120", FrameRate(numerator: 120, denominator: 1)),
    ("119.999", FrameRate(numerator: 119_999, denominator: 1000)),
    ("1", FrameRate(numerator: 1, denominator: 1)),
  ])
  func extremeFrameRatesLoadReducedAndAreSafeToSchedule(_ text: String, _ expected: FrameRate) throws {
    for duration in ["1", "60", "59.999"] {
      let profile = try load(P.profile(["segment": #"{"duration": \#(duration)}"#], rung: ["fps": text]))
      let rate = try #require(profile.video[1].fps)
      #expect(rate == expected)
      // What the encoder takes: 32-bit time base and frame rate fields.
      #expect(Int32(exactly: rate.numerator) != nil && Int32(exactly: rate.denominator) != nil)
      let schedule = KeyframeSchedule(segmentDuration: profile.segment.duration, rate: rate)
      #expect(schedule.framesPerSegment >= 1)
      // The last boundaries of an asset of 10^6 segments, and frame indices far beyond any source.
      for k in [Int64(1_000_000), Int64(Int32.max), Int64.max / 2, Int64.max] {
        #expect(schedule.frameIndex(ofBoundary: k) >= schedule.frameIndex(ofBoundary: k / 2))
        _ = schedule.seconds(ofBoundary: k)
      }
      for n in [Int64(0), Int64(Int32.max), Int64.max] { _ = schedule.isBoundary(frameIndex: n) }
      var converter = FrameRateConverter(rate: rate)
      for seconds in [0, 1e300, -1e300, .infinity, .nan] { _ = converter.push(seconds: seconds) }
      _ = converter.finish(endSeconds: .infinity)
    }
  }

  @Test func endsOfEveryOtherRangeLoad() throws {
    let profile = try load(
      P.profile(
        [
          "segment": #"{"duration": 60}"#, "video": "[\(Self.largest), \(Self.smallest)]",
          "low_variant_bandwidth": "2000000000",
          "audio": #"{"bitrate": 512000, "channels": 8, "sample_rate": 96000}"#,
          "encryption":
            #"{"method": "aes-128", "rotate_every": 1000000, "clear_lead_segments": 1000000, "key_uri": "k{period}"}"#,
        ]))
    #expect(profile.video.map(\.bitrate) == [2_000_000_000, 10_000])
    #expect(profile.video.map(\.bufsize) == [4_000_000_000, 1000])
    #expect(profile.audio == AudioSettings(codec: .aac, bitrate: 512_000, channels: 8, sampleRate: 96_000))
    #expect(profile.encryption.rotateEvery == 1_000_000 && profile.encryption.clearLeadSegments == 1_000_000)
    let ac3 = try load(
      P.profile(["audio": #"{"codec": "ac3", "bitrate": 640000, "channels": 6, "sample_rate": 32000}"#]))
    #expect(ac3.audio == AudioSettings(codec: .ac3, bitrate: 640_000, channels: 6, sampleRate: 32_000))
    let low = try load(
      P.profile(["audio": #"{"bitrate": 8000, "channels": 1, "sample_rate": 8000}"#, "low_variant_bandwidth": "1"]))
    #expect(low.audio == AudioSettings(codec: .aac, bitrate: 8000, channels: 1, sampleRate: 8000))
  }

  /// A source's rate has 32-bit terms (FFmpeg's AVRational): positions were
  /// products of three such numbers and overflowed 64 bits within hours.
  @Test func scheduleStaysExactForLargeSourceRateTerms() {
    let rate = FrameRate(numerator: Int(Int32.max), denominator: 71_582_788)  // 29.9999… fps
    let schedule = KeyframeSchedule(segmentDuration: 60, rate: rate)
    let boundary: Int64 = 100_000  // 69 days of 60 s segments
    let frame = schedule.frameIndex(ofBoundary: boundary)
    #expect(frame == 180_000_001)  // ceil(100000 * 60 * 2147483647 / 71582788)
    #expect(schedule.isBoundary(frameIndex: frame))
    #expect(!schedule.isBoundary(frameIndex: frame + 1))
  }
}
