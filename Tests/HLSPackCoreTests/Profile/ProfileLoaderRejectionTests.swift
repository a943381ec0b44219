import Foundation
import HLSPackTestSupport
import Testing

/// Every field a profile can get wrong, with the JSON path its rejection names.
private typealias P = ProfileJSON

extension ProfileLoaderTests {
  static let rejections: [Rejection] = [
    // Unknown or misspelt fields never pass silently.
    Rejection(P.profile(["colour": #""red""#]), "$.colour", "unknown field"),
    Rejection(P.profile(rung: ["bitrat": "3000000"]), "$.video[1].bitrat", "unknown field"),
    Rejection(P.profile(["segment": #"{"duration": 6, "length": 6}"#]), "$.segment.length", "unknown field"),
    // Wrong types.
    Rejection("[]", "$", "expected an object, found an array"),
    Rejection(P.profile(["version": #""1""#]), "$.version", "expected a number, found a string"),
    Rejection(P.profile(["segment": "6"]), "$.segment", "expected an object, found a number"),
    Rejection(P.profile(["video": "{}"]), "$.video", "expected an array, found an object"),
    Rejection(P.profile(["video": #"["low"]"#]), "$.video[0]", "expected an object, found a string"),
    Rejection(P.profile(rung: ["width": #""1280""#]), "$.video[1].width", "expected a number, found a string"),
    Rejection(P.profile(rung: ["width": "true"]), "$.video[1].width", "expected a number, found a boolean"),
    Rejection(P.profile(rung: ["name": "7"]), "$.video[1].name", "expected a string, found a number"),
    Rejection(P.profile(["inputs": "[1]"]), "$.inputs[0]", "expected a non-empty path string"),
    Rejection(P.profile(["output": #""""#]), "$.output", "must not be empty"),
    Rejection(P.profile(["audio": #"{"channels": "2"}"#]), "$.audio.channels", "expected a number, found a string"),
    Rejection(
      P.profile(["encryption": #"{"method": "aes-256"}"#]), "$.encryption.method", #"must be one of "none", "aes-128""#),
    Rejection(P.profile(["encryption": #"{"method": "aes-128", "iv": "zero"}"#]), "$.encryption.iv", #"found "zero""#),
    Rejection(P.profile(["labels": #""yes""#]), "$.labels", "expected true or false"),
    Rejection(
      P.profile(["labels": "true", "video": #"[{"name": "src", "codec": "copy"}]"#]), "$.labels",
      #"a rung with codec "copy" has none"#),
    // Version.
    Rejection(P.profile(["version": "2"]), "$.version", "unsupported version 2"),
    Rejection(P.profile(["version": nil]), "$.version", "is required"),
    Rejection(P.profile(["version": "1.5"]), "$.version", "expected a whole number"),
    // Required sections.
    Rejection(P.profile(["segment": nil]), "$.segment", "is required"),
    Rejection(P.profile(["segment": "{}"]), "$.segment.duration", "is required"),
    Rejection(
      P.profile(["segment": #"{"duration": 0.5}"#]), "$.segment.duration", "must be from 1 to 60 seconds, found 0.5"),
    Rejection(P.profile(["segment": #"{"duration": 6, "container": "mkv"}"#]), "$.segment.container", #"found "mkv""#),
    Rejection(
      P.profile(["segment": #"{"duration": 6, "checksums": "yes"}"#]), "$.segment.checksums", "expected true or false"),
    Rejection(
      P.profile(["segment": #"{"duration": 6, "program_date_time": "2026-03-01T12:00:00"}"#]),
      "$.segment.program_date_time", "neither \"source\" nor an ISO 8601 date-time with a time zone"),
    Rejection(
      P.profile(["segment": #"{"duration": 6, "program_date_time": true}"#]), "$.segment.program_date_time",
      "expected a string"),
    Rejection(P.profile(["video": nil]), "$.video", "is required"),
    Rejection(P.profile(["video": "[]"]), "$.video", "one or more rungs"),
    // Picture size.
    Rejection(P.profile(rung: ["width": "1279"]), "$.video[1].width", "must be even for 4:2:0 video, found 1279"),
    Rejection(P.profile(rung: ["height": "719"]), "$.video[1].height", "must be even for 4:2:0 video, found 719"),
    Rejection(P.profile(rung: ["width": "8"]), "$.video[1].width", "from 16 to 8192, found 8"),
    Rejection(P.profile(rung: ["height": nil]), "$.video[1].height", "is required"),
    // Rates.
    Rejection(P.profile(rung: ["bitrate": "0"]), "$.video[1].bitrate", "from 1 to 2000000000, found 0"),
    Rejection(P.profile(rung: ["bitrate": "9999"]), "$.video[1].bitrate", "at least 10000 bit/s, found 9999"),
    Rejection(P.profile(rung: ["bitrate": "2500000.5"]), "$.video[1].bitrate", "expected a whole number"),
    Rejection(
      P.profile(rung: ["maxrate": "2000000"]), "$.video[1].maxrate", "at least the bitrate (3000000), found 2000000"),
    // Names become folder names.
    Rejection(P.profile(rung: ["name": #""low""#]), "$.video[1].name", #"duplicate rung name "low""#),
    Rejection(P.profile(rung: ["name": #""../x""#]), "$.video[1].name", #""../x" is not a safe folder name"#),
    Rejection(P.profile(rung: ["name": #"".hidden""#]), "$.video[1].name", #"".hidden" is not a safe folder name"#),
    Rejection(P.profile(rung: ["name": #""a/b""#]), "$.video[1].name", #""a/b" is not a safe folder name"#),
    Rejection(P.profile(rung: ["name": #""-x""#]), "$.video[1].name", #""-x" is not a safe folder name"#),
    Rejection(P.profile(rung: ["name": #""""#]), "$.video[1].name", "must not be empty"),
    Rejection(P.profile(rung: ["name": #""keys""#]), "$.video[1].name", "reserved for the key folder"),
    // Encoder settings.
    Rejection(P.profile(rung: ["level": #""3.3""#]), "$.video[1].level", #""3.3" is not a"#),
    Rejection(P.profile(rung: ["level": "true"]), "$.video[1].level", "expected a level"),
    // A level the rung breaks (H.264 Table A-1, HEVC Table A.8), as x264 would only warn.
    Rejection(
      P.profile(rung: ["width": "1920", "height": "1080", "level": #""3.0""#]), "$.video[1].level",
      "level 3.0 allows pictures of at most 1620 macroblocks; 1920x1080 has 8160"),
    Rejection(
      P.profile(rung: ["width": "1824", "height": "16", "level": #""3.0""#]), "$.video[1].level",
      "level 3.0 allows a picture side of at most 113 macroblocks; 1824x16 has 114"),
    Rejection(
      P.profile(rung: ["fps": "60", "level": #""3.1""#]), "$.video[1].level",
      "level 3.1 allows 108000 macroblocks per second; 1280x720 at 60 fps has 216000"),
    Rejection(
      P.profile(rung: ["bitrate": "15000000", "profile": #""main""#, "level": #""3.1""#]), "$.video[1].level",
      "level 3.1 allows at most 14000000 bit/s for this profile; the rung asks for 15000000"),
    Rejection(
      P.profile(rung: ["maxrate": "18000000", "level": #""3.1""#]), "$.video[1].level",
      "level 3.1 allows at most 17500000 bit/s for this profile; the rung asks for 18000000"),
    Rejection(
      P.profile(rung: ["codec": #""hevc""#, "width": "1920", "height": "1080", "level": #""3.0""#]), "$.video[1].level",
      "level 3.0 allows pictures of at most 552960 luma samples; 1920x1080 has 2073600"),
    Rejection(P.profile(rung: ["preset": #""fastest""#]), "$.video[1].preset", #"found "fastest""#),
    Rejection(P.profile(rung: ["profile": #""high10""#]), "$.video[1].profile", #"found "high10""#),
    Rejection(P.profile(rung: ["fps": "0"]), "$.video[1].fps", "0 is not a frame rate from 1 to 120"),
    Rejection(P.profile(rung: ["fps": #""30/0""#]), "$.video[1].fps", "expected a frame rate"),
    Rejection(
      P.profile(rung: ["fps": "12.3456"]), "$.video[1].fps",
      "12.3456 is not a frame rate from 1 to 120 with at most three decimals"),
    Rejection(P.profile(rung: ["fps": "0.5"]), "$.video[1].fps", "0.5 is not a frame rate from 1 to 120"),
    Rejection(P.profile(rung: ["fps": "121"]), "$.video[1].fps", "121 is not a frame rate from 1 to 120"),
    Rejection(P.profile(rung: ["fit": #""crop""#]), "$.video[1].fit", "crop"),
    Rejection(P.profile(rung: ["fps": #""1/2""#]), "$.video[1].fps", "expected a frame rate"),
    Rejection(
      P.profile(rung: ["fps": #""thirty""#]), "$.video[1].fps",
      #"expected a frame rate from 1 to 120 such as 25, 12.5, 29.97 or "30000/1001", found "thirty""#),
    // Audio.
    Rejection(
      P.profile(["audio": #"{"sample_rate": 44000}"#]), "$.audio.sample_rate", "44000 is not an AAC sample rate"),
    Rejection(P.profile(["audio": #"{"sample_rate": 7000}"#]), "$.audio.sample_rate", "from 8000 to 96000, found 7000"),
    Rejection(P.profile(["audio": #"{"channels": 0}"#]), "$.audio.channels", "from 1 to 8, found 0"),
    // The key URI is written inside URI="…" (RFC 8216bis §4.2): no quote, CR or LF.
    // The messages name the character and say the playlist "cannot quote" it.
    Rejection(
      P.profile(["encryption": #"{"method": "aes-128", "key_uri": "k\"ey"}"#]), "$.encryption.key_uri", "quote"),
    Rejection(
      P.profile(["encryption": #"{"method": "aes-128", "key_uri": "k\ney"}"#]), "$.encryption.key_uri", "quote"),
    Rejection(
      P.profile(["encryption": #"{"method": "aes-128", "key_uri": "k\rey"}"#]), "$.encryption.key_uri", "quote"),
    Rejection(P.profile(["encryption": #"{"method": "aes-128", "key_uri": ""}"#]), "$.encryption.key_uri", "empty"),
    // Strings the playlist writes as quoted strings (NAME="…") cannot end or break them (RFC 8216bis §4.2).
    Rejection(
      P.profile(["audio": #"[{"name": "Eng \"Director\"", "language": "en"}]"#]), "$.audio[0].name",
      "contains a double quote"),
    Rejection(
      P.profile(["audio": #"[{"name": "Eng\nX", "language": "en"}]"#]), "$.audio[0].name",
      "contains a line break (U+000A)"),
    Rejection(P.profile(["audio": #"[{"name": "", "language": "en"}]"#]), "$.audio[0].name", "must not be empty"),
    Rejection(
      P.profile(["audio": #"[{"name": "E", "language": "en", "id": "a\tb"}]"#]), "$.audio[0].id",
      "control character (U+0009)"),
    Rejection(
      P.profile(["subtitles": #"[{"name": "Sub \"x\"", "language": "en", "file": "s.vtt"}]"#]), "$.subtitles[0].name",
      "contains a double quote"),
    Rejection(
      P.profile(["subtitles": #"[{"name": "S\r", "language": "en", "file": "s.vtt"}]"#]), "$.subtitles[0].name",
      "line break (U+000D)"),
    Rejection(
      P.profile(["encryption": #"{"method": "aes-128", "keyformat": "com.x\r\n"}"#]), "$.encryption.keyformat",
      "line break"),
    Rejection(
      P.profile(["encryption": #"{"method": "aes-128", "keyformat": "a\"b"}"#]), "$.encryption.keyformat",
      "double quote"),
    Rejection(
      P.profile(["encryption": #"{"method": "aes-128", "hdcp_level": "type-2"}"#]), "$.encryption.hdcp_level", "type-1"),
    Rejection(
      P.profile(["encryption": #"{"method": "none", "hdcp_level": "type-0"}"#]), "$.encryption.hdcp_level",
      "nothing would be encrypted"),
    // FairPlay delivers one IV with each key: a per-segment sequence IV would be silently ignored.
    Rejection(
      P.profile([
        "video": "[\(P.firstRung)]", "encryption": #"{"method": "sample-aes", "fairplay": true, "iv": "sequence"}"#,
      ]),
      "$.encryption.iv", #""sequence" cannot be used with fairplay"#),
    // One key and sequence IVs would encrypt every rendition's first block (the same PAT) alike
    // (docs/conformance.md, IVs).
    Rejection(
      P.profile(["encryption": #"{"method": "aes-128", "iv": "sequence"}"#]), "$.encryption.iv",
      "would repeat (key, IV) pairs"),
    // An alternate audio rendition shares the video's key as much as a second rung does.
    Rejection(
      P.profile([
        "video": "[\(P.firstRung)]", "audio": #"[{"name": "Main", "language": "en"}]"#,
        "encryption": #"{"method": "aes-128", "iv": "sequence"}"#,
      ]),
      "$.encryption.iv", "one key for 2 renditions would repeat (key, IV) pairs"),
    Rejection(P.profile(["encryption": #"{"key_uri": "https://k"}"#]), "$.encryption.key_uri", #"method is "none""#),
    Rejection(
      P.profile(["encryption": #"{"method": "none", "key_uri": "https://k"}"#]), "$.encryption.key_uri",
      "nothing would be encrypted"),
    Rejection(
      P.profile(["encryption": #"{"method": "sample-aes"}"#], rung: ["codec": #""hevc""#, "profile": #""main""#]),
      "$.video[1].codec",
      "\"sample-aes\" in MPEG-TS encrypts H.264 only"),
    // null is no value (the schema allows it nowhere): a templated profile
    // that writes it for "method" must not publish in the clear with exit 0.
    Rejection(P.profile(["encryption": #"{"method": null}"#]), "$.encryption.method", "is null, which no field takes"),
    Rejection(P.profile(["encryption": "null"]), "$.encryption", "is null"),
    Rejection(P.profile(["audio": "null"]), "$.audio", "is null"),
    Rejection(
      P.profile(["encryption": #"{"method": "sample-aes", "fairplay": null}"#]), "$.encryption.fairplay", "is null"),
    Rejection(P.profile(rung: ["bitrate": "null"]), "$.video[1].bitrate", "is null"),
    Rejection(P.profile(["inputs": "null", "subtitles": "null"]), "$.inputs", "is null"),
    Rejection(P.profile(["inputs": "[null]"]), "$.inputs[0]", "expected a non-empty path string"),
    // Not JSON at all.
    Rejection(#"{"version": 1,"#, "$", "not valid JSON"),
    // Strict JSON: no trailing commas, no key twice (which value counts is undefined). More in ProfileJSONSyntaxTests.
    Rejection(
      "{\"version\": 1,\n \"segment\": {\"duration\": 6,},\n \"video\": []}", "$.segment",
      #"line 2, column 27: a comma before "}""#),
    Rejection(P.profile(["video": "[\(P.firstRung),]"]), "$.video", #"a comma before "]""#),
    Rejection(
      P.profile(["segment": #"{"duration": 4, "duration": -1}"#]), "$.segment.duration",
      #"line 1, column 43: duplicate key "duration""#),
    Rejection(P.profile(["segment": #"{"duration": 4, "d\u0075ration": 4}"#]), "$.segment.duration", "duplicate key"),
    Rejection(P.profile(["video": #"[{"name": "a", "x": [{"k": 1, "k": 2}]}]"#]), "$.video[0].x[0].k", "duplicate key"),
    Rejection("", "$", "not valid JSON"),
  ]
}
