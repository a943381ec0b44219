import Foundation
import Testing

@testable import HLSPackCore

/// `video[].video_range`: "pq" or "hlg" for an HEVC Main 10 rung, "sdr", or left out
/// (the source's); what cannot be HDR is refused by its JSON path.
@Suite struct VideoRangeProfileTests {
  static func load(_ rung: ProfileJSON.Changes) throws -> Profile {
    let json = ProfileJSON.profile(["segment": #"{"duration": 2, "container": "fmp4"}"#], rung: rung)
    return try ProfileLoader.load(
      data: Data(json.utf8), file: "test.json", baseDirectory: URL(fileURLWithPath: "/profiles"))
  }

  @Test func anHEVCRungMayBePQHLGOrSDR() throws {
    #expect(try Self.load(["codec": #""hevc""#, "video_range": #""pq""#]).video[1].videoRange == .pq)
    #expect(
      try Self.load(["codec": #""hevc""#, "profile": #""main10""#, "video_range": #""pq""#]).video[1].videoRange == .pq)
    #expect(try Self.load(["codec": #""hevc""#, "video_range": #""hlg""#]).video[1].videoRange == .hlg)
    #expect(try Self.load(["video_range": #""sdr""#]).video[1].videoRange == .sdr)
    #expect(try Self.load([:]).video[1].videoRange == nil, "left out: the source's range")
  }

  @Test(arguments: [
    (["video_range": #""pq""#], "needs codec \"hevc\""),
    (["codec": #""av1""#, "video_range": #""pq""#], "needs codec \"hevc\""),
    (["codec": #""hevc""#, "profile": #""main""#, "video_range": #""pq""#], "10-bit"),
    (["video_range": #""hlg""#], "\"hlg\" needs codec \"hevc\""),
    (["codec": #""hevc""#, "video_range": #""hdr10""#], "must be one of \"sdr\", \"pq\", \"hlg\""),
    (["codec": #""hevc""#, "video_range": #""PQ""#], "must be one of"),
  ] as [(ProfileJSON.Changes, String)])
  func whatCannotBeHDRIsRefused(rung: ProfileJSON.Changes, words: String) throws {
    let error = try #require(AV1ProfileTests.refusal { try Self.load(rung) })
    #expect(error.path == "$.video[1].video_range")
    #expect(error.message.contains(words), "\(error.message)")
  }
}
