import Foundation
import HLSPackTestSupport
import Testing

/// fMP4 renditions: H.264 and HEVC (tagged hvc1), clear and AES-128, checked
/// with ffmpeg/ffprobe and the tests' own box reader.
@Suite("fMP4 and HEVC")
struct FragmentedMP4Tests {
  static func package(_ method: String) throws -> EncodedPackage {
    try EncodedPackage.with(
      encryption: #"{"method": "\#(method)"}"#, container: "fmp4",
      rungs: [
        #"{"name": "avc", "width": 320, "height": 180, "bitrate": 300000, "preset": "ultrafast", "profile": "main"}"#,
        #"{"name": "hevc", "width": 320, "height": 180, "bitrate": 200000, "preset": "ultrafast", "codec": "hevc"}"#,
      ])
  }

  @Test(arguments: ["none", "aes-128"])
  func everyVariantDecodesWithTheSourceFrameCount(method: String) throws {
    let package = try Self.package(method)
    for variant in package.master.variants {
      let path = package.folder.appendingPathComponent(variant.uri).path
      let decode = try Command.run(
        "ffmpeg", ["-v", "error", "-allowed_extensions", "ALL", "-i", path, "-f", "null", "-"])
      #expect(decode.status == 0 && decode.stderr.isEmpty, "\(variant.uri): \(decode.stderr)")
      let probe = try ffprobe(
        path, ["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames,codec_tag_string"])
      #expect(probe["nb_read_frames"] == String(Fixtures.clipFrames))
    }
  }

  @Test func hevcIsTaggedHvc1AndItsCodecStringComesFromTheStream() throws {
    let package = try Self.package("none")
    let hevc = try #require(package.master.variants.first { $0.uri.hasPrefix("hevc/") })
    let codecs = try #require(hevc.attributes["CODECS"])
    #expect(codecs.hasPrefix("hvc1.1.6.L"), "Main profile, compatibility flags 1 and 2: \(codecs)")
    let initBytes = Array(try Data(contentsOf: package.folder.appendingPathComponent("hevc/init.mp4")))
    let moov = try #require(try Box.parse(initBytes[...]).first { $0.type == "moov" })
    let tracks = try moov.children().filter { $0.type == "trak" }
    var entries: [String] = []
    for trak in tracks {
      let stsd = try #require(try trak.find(["mdia", "minf", "stbl", "stsd"]))
      // stsd: version/flags (4), entry count (4), then the first sample entry box.
      entries += try Box.parse(stsd.payload.dropFirst(8)).map(\.type)
    }
    #expect(entries.contains("hvc1") && !entries.contains("hev1"), "\(entries)")
    let probe = try ffprobe(
      package.folder.appendingPathComponent(hevc.uri).path,
      ["-select_streams", "v:0", "-show_entries", "stream=profile,level"])
    let level = try #require(Int(probe["level"] ?? ""))
    #expect(codecs.contains(".L\(level)."), "level \(level) vs \(codecs)")
  }

  @Test func segmentsAreOneFragmentEachWithContinuousDecodeTimes() throws {
    let package = try Self.package("none")
    for variant in package.master.variants {
      let folder = package.folder.appendingPathComponent(variant.uri).deletingLastPathComponent()
      let initBoxes = try Box.parse(Array(try Data(contentsOf: folder.appendingPathComponent("init.mp4")))[...])
      #expect(initBoxes.map(\.type) == ["ftyp", "moov"])
      let moov = try #require(initBoxes.last)
      #expect(try moov.find(["mvex"]) != nil, "fragmented movies need mvex")
      var next: [UInt32: UInt64] = [:]
      for segment in try package.playlist(variant.uri).segments {
        let boxes = try Box.parse(Array(try Data(contentsOf: folder.appendingPathComponent(segment.uri)))[...])
        #expect(boxes.map(\.type) == ["moof", "mdat"], "\(segment.uri): \(boxes.map(\.type))")
        let moof = try #require(boxes.first)
        let fragments = try moof.children().filter { $0.type == "traf" }.map(TrackFragment.init)
        #expect(fragments.count == 2, "video and audio in every fragment")
        for fragment in fragments {
          if let expected = next[fragment.trackID] {
            #expect(fragment.baseDecodeTime == expected, "tfdt gap on track \(fragment.trackID) in \(segment.uri)")
          }
          next[fragment.trackID] = fragment.baseDecodeTime + fragment.durations.reduce(0) { $0 + UInt64($1) }
        }
        #expect(fragments.first?.firstSampleIsSync == true, "\(segment.uri) must open with a sync sample")
      }
    }
  }

  /// Every track's timestamps start at 0 and its edit list skips what comes
  /// before the first picture, as Shaka Packager writes them: the video's
  /// B-frame delay (the first sample's composition offset), the audio's
  /// priming. Players that place fragments by tfdt (hls.js) then find a
  /// picture at 0 instead of a hole; players that apply edit lists show the
  /// first picture and the first audio sample after the priming together at 0.
  @Test func everyTrackStartsAtZeroAndItsEditListSkipsToTheFirstPicture() throws {
    let package = try Self.package("none")
    for variant in package.master.variants {
      let folder = package.folder.appendingPathComponent(variant.uri).deletingLastPathComponent()
      let initBytes = Array(try Data(contentsOf: folder.appendingPathComponent("init.mp4")))
      let moov = try #require(try Box.parse(initBytes[...]).first { $0.type == "moov" })
      var edits: [UInt32: TrackEdit] = [:]
      for trak in try moov.children().filter({ $0.type == "trak" }) {
        let tkhd = try #require(try trak.find(["tkhd"])).payload
        let trackID = readBE32(tkhd, tkhd.startIndex + 12)
        let edit = try #require(try TrackEdit(trak), "track \(trackID) of \(variant.uri) has no edit list")
        #expect(edit.entryCount == 1 && edit.segmentDuration == 0, "one edit over the whole track")
        edits[trackID] = edit
      }
      let firstSegment = try #require(try package.playlist(variant.uri).segments.first)
      let moof = try #require(
        try Box.parse(Array(try Data(contentsOf: folder.appendingPathComponent(firstSegment.uri)))[...]).first)
      let fragments = try moof.children().filter { $0.type == "traf" }.map(TrackFragment.init)
      let video = try #require(fragments.first), audio = try #require(fragments.last)
      #expect(
        fragments.allSatisfy { $0.baseDecodeTime == 0 }, "\(variant.uri): tfdt \(fragments.map(\.baseDecodeTime))")
      #expect(
        Int64(try #require(edits[video.trackID]).mediaTime) == video.compositionOffsets.first, "\(variant.uri): video")
      let primingSeconds = try #require(edits[audio.trackID]).seconds
      #expect(primingSeconds > 0.01 && primingSeconds < 0.03, "\(variant.uri): audio skips \(primingSeconds) s")
      // ffprobe applies the edit lists.
      let path = package.folder.appendingPathComponent(variant.uri).path
      let videoStart = try ffprobe(path, ["-select_streams", "v:0", "-show_entries", "stream=start_time"])["start_time"]
      let audioStart = try #require(
        Double(try ffprobe(path, ["-select_streams", "a:0", "-show_entries", "stream=start_time"])["start_time"] ?? ""))
      #expect(videoStart == "0.000000", "\(variant.uri): first picture at \(videoStart ?? "?")")
      #expect(
        abs(audioStart + primingSeconds) < 0.0001, "\(variant.uri): audio from \(audioStart), its priming before 0")
    }
  }

  @Test func mapPrecedesTheFirstKeyTagAndTheInitSegmentStaysClear() throws {
    let package = try Self.package("aes-128")
    for variant in package.master.variants {
      let playlist = try package.playlist(variant.uri)
      let map = try #require(playlist.lines.firstIndex { $0.hasPrefix("#EXT-X-MAP:") })
      let key = try #require(playlist.lines.firstIndex { $0.hasPrefix("#EXT-X-KEY:") })
      #expect(map < key)
      #expect(playlist.values(of: "#EXT-X-VERSION") == ["6"])
      let folder = package.folder.appendingPathComponent(variant.uri).deletingLastPathComponent()
      let initBytes = Array(try Data(contentsOf: folder.appendingPathComponent("init.mp4")))
      #expect(String(decoding: initBytes[4..<8], as: UTF8.self) == "ftyp")
      for (index, segment) in playlist.segments.enumerated() {
        let clear = try package.clearSegment(variant: variant.uri, segment, index: index)
        #expect(try Box.parse(clear[...]).map(\.type) == ["moof", "mdat"])
      }
    }
  }
}
