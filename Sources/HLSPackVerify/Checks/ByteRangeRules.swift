/// Rules over the sub-ranges a media playlist names in its resources: none
/// overlaps another (segments and the EXT-X-MAP alike), and an AES-128 one
/// starts on a 16-byte block of its resource. Ranges outside the resource are
/// `segment.byterange-invalid`'s, checked against the resource's size. An
/// I-frame playlist's ranges are parts of segments, checked as pictures.
public enum ByteRangeRules {
  public static func media(_ playlist: VerifiedMediaPlaylist, file: String) -> [Finding] {
    guard !playlist.iFramesOnly else { return [] }
    var findings: [Finding] = []
    // Per resource, the ranges named so far: where each starts and ends, and what names it.
    var named: [String: [(start: Int, end: Int, name: String)]] = [:]
    var maps: Set<String> = []
    func claim(_ uri: String, _ range: (length: Int, offset: Int), name: String, line: Int, segment: String) {
      let (end, overflow) = range.offset.addingReportingOverflow(range.length)
      guard !overflow else { return }
      if let other = named[uri, default: []].first(where: { $0.start < end && range.offset < $0.end }) {
        findings.append(
          Finding(
            VerifyRules.segmentByteRangeOverlap, file: file, line: line, segment: segment,
            detail: "\(name) \(range.length)@\(range.offset) overlaps "
              + "\(other.name) \(other.end - other.start)@\(other.start)"))
      }
      named[uri, default: []].append((range.offset, end, name))
    }
    for segment in playlist.segments {
      if let map = segment.mapURI, let range = segment.mapRange, maps.insert("\(map)@\(range.offset)").inserted {
        claim(map, range, name: "EXT-X-MAP BYTERANGE", line: segment.line, segment: map)
      }
      guard let range = segment.byteRange else { continue }
      claim(segment.uri, range, name: "EXT-X-BYTERANGE", line: segment.line, segment: segment.uri)
      if segment.key?.method == "AES-128", range.offset % 16 != 0 {
        findings.append(
          Finding(
            VerifyRules.segmentAES128RangeAlignment, file: file, line: segment.line, segment: segment.uri,
            detail: "EXT-X-BYTERANGE:\(range.length)@\(range.offset) starts \(range.offset % 16) bytes into a block"))
      }
    }
    return findings
  }
}
