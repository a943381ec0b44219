import Testing

@testable import HLSPackCore

@Suite struct SubtitleParserTests {
  /// SRT text is plain text to WebVTT except for the tags both formats share
  /// (W3C WebVTT cue text: "&" and "<" escaped, no "-->").
  @Test(arguments: [
    ("x < y && y > z", "x &lt; y &amp;&amp; y &gt; z"),
    ("next --> there", "next --&gt; there"),
    ("<i>Hi</i>, <B>bold</B> and <u>under</u>", "<i>Hi</i>, <b>bold</b> and <u>under</u>"),
    (##"<font color="#ff0000">red</font> <FONT face="Arial">text</FONT>"##, "red text"),
    ("<c.yellow>c</c> <v Bob>v</v> <3", "&lt;c.yellow&gt;c&lt;/c&gt; &lt;v Bob&gt;v&lt;/v&gt; &lt;3"),
    ("Tom &amp; Jerry\n<i>two\nlines</i>", "Tom &amp;amp; Jerry\n<i>two\nlines</i>"),
  ])
  func srtTextBecomesWebVTTCueText(srt: String, webVTT: String) throws {
    let cues = try SubtitleParser.parse("1\n00:00:01,000 --> 00:00:02,000\n\(srt)\n", srt: true)
    #expect(cues.map(\.text) == [webVTT])
  }

  @Test func webVTTTextIsKept() throws {
    let cues = try SubtitleParser.parse(
      "WEBVTT\n\n00:01.000 --> 00:02.000 align:start\n<c.x>Tom &amp; <i>Jerry</i></c>\n", srt: false)
    #expect(cues.map(\.text) == ["<c.x>Tom &amp; <i>Jerry</i></c>"])
  }

  /// Cue identifiers stay with their cues (SRT's numbers are not WebVTT
  /// identifiers); STYLE, REGION and NOTE blocks are left out, as FFmpeg 5.1
  /// reads no cue from a file with a STYLE or REGION block.
  @Test func identifiersStayAndHeaderBlocksGo() throws {
    let source =
      "WEBVTT\n\nNOTE by hand\n\nSTYLE\n::cue { color: yellow }\n\nREGION\nid:r1\n\nintro\n00:01.000 --> 00:03.000 region:r1\nHello\n\n00:03.500 --> 00:04.000\nBye\n"
    let cues = try SubtitleParser.parse(source, srt: false)
    #expect(cues.map(\.identifier) == ["intro", ""])
    #expect(try SubtitleParser.parse("7\n00:00:01,000 --> 00:00:02,000\nSRT\n", srt: true).map(\.identifier) == [""])
    let documents = WebVTTSegmenter(originTicks: 0).segments(cues, boundaries: [0, 2_000, 4_000])
    #expect(
      documents == [
        "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\n\nintro\n00:00:01.000 --> 00:00:03.000 region:r1\nHello\n\n",
        "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\n\nintro\n00:00:01.000 --> 00:00:03.000 region:r1\nHello\n\n"
          + "00:00:03.500 --> 00:00:04.000\nBye\n\n",
      ])
  }

  /// Only timing lines carry "-->" in the written segments.
  @Test func segmentsHaveArrowsOnlyOnTimingLines() throws {
    let cues = try SubtitleParser.parse(
      "1\n00:00:01,000 --> 00:00:02,000\na --> b\n\n2\n00:00:02,500 --> 00:00:03,000\n-->\n", srt: true)
    let document = try #require(WebVTTSegmenter(originTicks: 90_000).segments(cues, boundaries: [0, 4_000]).first)
    let arrows = document.split(separator: "\n").filter { $0.contains("-->") }
    #expect(arrows == ["00:00:01.000 --> 00:00:02.000", "00:00:02.500 --> 00:00:03.000"])
  }

  /// The whole document: header, then every cue as a block ending in a blank
  /// line. Cues keep their presentation times and the map ties LOCAL 0 to the
  /// first picture's timestamp (on the media clock, 1 s late in VLC and yt-dlp).
  @Test func segmentDocumentText() throws {
    let cues = try SubtitleParser.parse(
      "WEBVTT\n\n00:01.000 --> 00:02.000 align:start\nHello\n\n00:02.500 --> 00:05.000\nBye", srt: false)
    let documents = WebVTTSegmenter(originTicks: 90_000).segments(cues, boundaries: [0, 2_000, 4_000, 6_000])
    #expect(
      documents == [
        "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:90000,LOCAL:00:00:00.000\n\n00:00:01.000 --> 00:00:02.000 align:start\nHello\n\n",
        "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:90000,LOCAL:00:00:00.000\n\n00:00:02.500 --> 00:00:05.000\nBye\n\n",
        "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:90000,LOCAL:00:00:00.000\n\n00:00:02.500 --> 00:00:05.000\nBye\n\n",
      ])
  }

  /// Timings are digits only, at most 9 per field: an hour count of 17 digits
  /// overflowed Int64 and trapped, and a sign made a negative cue time.
  @Test(arguments: [
    "99999999999999999:00:00,000 --> 99999999999999999:00:01,000",
    "00:00:-5,000 --> 00:00:01,000",
    "00:+1:00,000 --> 00:02:00,000",
    "00:00:01,+00 --> 00:00:02,000",
  ])
  func timingsOutOfRangeAreRefused(timing: String) {
    #expect(throws: SubtitleParseError.self) { try SubtitleParser.parse("1\n\(timing)\nText\n", srt: true) }
  }

  @Test func longestHourFieldIsRead() throws {
    let cues = try SubtitleParser.parse("WEBVTT\n\n999999999:59:59.999 --> 999999999:59:59.999\nLate\n", srt: false)
    #expect(cues.map(\.start) == [999_999_999 * 3_600_000 + 3_599_999])
  }
}
