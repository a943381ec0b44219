import Foundation
import Testing

@testable import HLSPackCore

/// `inputs` entries made of parts: read in order with their clear flags and
/// their place in the profile; what cannot be joined is refused by its JSON path.
@Suite struct JoinedInputProfileTests {
  static func load(inputs: String, subtitles: String? = nil) throws -> Profile {
    let json = ProfileJSON.profile(["inputs": inputs, "subtitles": subtitles])
    return try ProfileLoader.load(
      data: Data(json.utf8), file: "test.json", baseDirectory: URL(fileURLWithPath: "/profiles"))
  }

  @Test func partsLoadInOrderBesidePlainInputs() throws {
    let profile = try Self.load(
      inputs: #"["a.mp4", {"asset": "show", "parts": [{"file": "ad.mp4", "encryption": "none"}, {"file": "/m/b.mp4"}]}]"#)
    #expect(profile.inputs.map(\.path) == ["/profiles/a.mp4"])
    let joined = try #require(profile.joinedInputs.first)
    #expect(joined.asset == "show")
    #expect(joined.parts.map(\.file.path) == ["/profiles/ad.mp4", "/m/b.mp4"])
    #expect(joined.parts.map(\.clear) == [true, false])
    #expect(joined.parts.map(\.field) == ["inputs[1].parts[0].file", "inputs[1].parts[1].file"])
  }

  @Test(arguments: [
    (#"[{"asset": ".hidden", "parts": [{"file": "a.mp4"}]}]"#, "$.inputs[0].asset", "safe folder name"),
    (#"[{"asset": "keys", "parts": [{"file": "a.mp4"}]}]"#, "$.inputs[0].asset", "safe folder name"),
    (#"[{"asset": "show", "parts": []}]"#, "$.inputs[0].parts", "at least one part"),
    (#"[{"asset": "show"}]"#, "$.inputs[0].parts", "required"),
    (#"[{"asset": "show", "parts": [{"file": ""}]}]"#, "$.inputs[0].parts[0].file", "must not be empty"),
    (#"[{"asset": "show", "parts": [{"file": "a.mp4", "encryption": "aes-128"}]}]"#,
     "$.inputs[0].parts[0].encryption", #""none""#),
    (#"[{"asset": "show", "parts": [{"file": "a.mp4", "clear": true}]}]"#, "$.inputs[0].parts[0].clear", "unknown"),
    (#"[{"asset": "s", "parts": [{"file": "a"}]}, {"asset": "s", "parts": [{"file": "b"}]}]"#,
     "$.inputs[1].asset", "duplicate"),
    (#"[42]"#, "$.inputs[0]", "path string or an object"),
  ])
  func malformedPartsAreRefused(_ inputs: String, _ path: String, _ words: String) throws {
    do {
      _ = try Self.load(inputs: inputs)
      Issue.record("accepted \(inputs)")
    } catch let error as ProfileError {
      #expect(error.path == path)
      #expect(error.message.contains(words), "\(error.message)")
    }
  }

  @Test func subtitlesCannotBeJoined() throws {
    do {
      _ = try Self.load(
        inputs: #"[{"asset": "show", "parts": [{"file": "a.mp4"}]}]"#,
        subtitles: #"[{"name": "English", "language": "en", "file": "en.vtt"}]"#)
      Issue.record("accepted subtitles with parts")
    } catch let error as ProfileError {
      #expect(error.path == "$.subtitles")
      #expect(error.message.contains("made of parts"), "\(error.message)")
    }
  }

  @Test(arguments: [
    (#"{"duration": 2, "container": "fmp4", "single_file": true}"#, #"{"method": "none"}"#, "$.segment.single_file"),
    (#"{"duration": 2, "container": "fmp4"}"#, #"{"method": "aes-128", "encrypt_init": true}"#,
     "$.encryption.encrypt_init"),
  ])
  func aSingleFileOrAnEncryptedInitCannotBeJoined(_ segment: String, _ encryption: String, _ path: String) throws {
    let json = ProfileJSON.profile([
      "inputs": #"[{"asset": "show", "parts": [{"file": "a.mp4", "encryption": "none"}, {"file": "b.mp4"}]}]"#,
      "segment": segment, "encryption": encryption,
    ])
    do {
      _ = try ProfileLoader.load(data: Data(json.utf8), file: "test.json", baseDirectory: URL(fileURLWithPath: "/p"))
      Issue.record("accepted \(segment) \(encryption) with parts")
    } catch let error as ProfileError {
      #expect(error.path == path)
      #expect(error.message.contains("made of parts"), "\(error.message)")
    }
  }
}
