import FuzzSupport
import HLSPackCore

/// The subtitle reader, on the input as WebVTT and as SRT, and the WebVTT
/// segmenter on what it reads. Every segment written must read back as
/// WebVTT with as many cues as were put in it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSubtitles(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let text = String(decoding: fuzzInput(data, size), as: UTF8.self)
  for srt in [false, true] {
    guard let cues = try? SubtitleParser.parse(text, srt: srt) else { continue }
    let boundaries: [Int64] = [0, 2_000, 6_000, 3_600_000, 360_000_000]
    let documents = WebVTTSegmenter(originTicks: 900_000).segments(cues, boundaries: boundaries)
    for (document, (start, end)) in zip(documents, zip(boundaries, boundaries.dropFirst())) {
      let written = cues.filter { $0.start < end && $0.end > start }.count
      precondition((try? SubtitleParser.parse(document, srt: false))?.count == written, "a segment does not read back:\n\(document)")
    }
  }
  return 0
}
