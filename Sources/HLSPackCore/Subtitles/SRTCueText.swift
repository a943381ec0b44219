/// SRT cue text rewritten as WebVTT cue text. WebVTT reads "&" and "<" as the
/// start of an escape or a tag and ends a cue at "-->" (W3C WebVTT, cue text),
/// while SRT writers put them in as plain text. SRT's <i>, <b> and <u> (and
/// their end tags) mean the same in WebVTT and stay; <font …> has no WebVTT
/// counterpart and is dropped, its text kept; everything else is text, escaped.
enum SRTCueText {
  static let keptTags: Set<String> = ["i", "b", "u", "/i", "/b", "/u"]

  static func webVTT(_ srt: String) -> String {
    var text = ""
    var rest = Substring(srt)
    while let first = rest.first {
      if first == "<", let close = rest.firstIndex(of: ">") {
        let tag = rest[rest.index(after: rest.startIndex)..<close].trimmingSpaces().lowercased()
        let afterTag = rest[rest.index(after: close)...]
        if keptTags.contains(tag) {
          text += "<\(tag)>"
          rest = afterTag
          continue
        }
        if tag == "/font" || tag == "font" || tag.hasPrefix("font ") {
          rest = afterTag
          continue
        }
      }
      switch first {
      case "&": text += "&amp;"
      case "<": text += "&lt;"
      // Escaping every ">" leaves no "-->" in the text.
      case ">": text += "&gt;"
      default: text.append(first)
      }
      rest = rest.dropFirst()
    }
    return text
  }
}
