import Foundation
import HLSPackCore
import Testing

struct ProgressEventTests {
  @Test func secondsAreWrittenToTheMillisecond() throws {
    let event = ProgressEvent(
      event: .progress, asset: "a", input: "a.mp4", seconds: 13.320000000000007, duration: 29.9999999)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(event), as: UTF8.self)
    #expect(json.contains(#""seconds":13.32"#) && json.contains(#""duration":30"#), "\(json)")
  }
}
