import Foundation
import Testing

@testable import HLSPackCore

/// DEFAULT and AUTOSELECT across audio groups of one TYPE (RFC 8216bis §4.4.6.1.1): a
/// member's counterparts (same NAME and LANGUAGE) share the flags.
@Suite struct AudioGroupProfileTests {
  static func load(_ audio: [String]) throws -> [AudioRendition] {
    let json = ProfileJSON.profile(["audio": "[\(audio.joined(separator: ", "))]"])
    return try ProfileLoader.load(
      data: Data(json.utf8), file: "test.json", baseDirectory: URL(fileURLWithPath: "/profiles")
    )
    .audioRenditions
  }

  static func rendition(_ name: String, _ language: String, _ codec: String, _ extra: String = "") -> String {
    #"{"name": "\#(name)", "language": "\#(language)", "codec": "\#(codec)"\#(extra)}"#
  }

  /// "Group → NAME" of every DEFAULT=YES rendition.
  static func defaults(_ renditions: [AudioRendition]) -> [String] {
    renditions.filter(\.isDefault).map { "\($0.groupID) → \($0.name)" }
  }

  @Test func defaultOnOneRenditionAppliesToItsCounterpartInEveryGroup() throws {
    let renditions = try Self.load([
      Self.rendition("English", "en", "aac"), Self.rendition("Français", "fr", "aac", #", "default": true"#),
      Self.rendition("English", "en", "ac3"), Self.rendition("Français", "fr", "ac3"),
    ])
    #expect(Self.defaults(renditions) == ["audio-aac → Français", "audio-ac3 → Français"])
    #expect(renditions.allSatisfy { $0.autoselect })
  }

  /// Without any default the same member is picked in every group, whatever the order of the members.
  @Test func unmarkedGroupsPickTheSameMember() throws {
    let renditions = try Self.load([
      Self.rendition("Français", "fr", "ac3"), Self.rendition("English", "en", "aac"),
      Self.rendition("English", "en", "ac3"), Self.rendition("Français", "fr", "aac"),
    ])
    #expect(Self.defaults(renditions) == ["audio-ac3 → Français", "audio-aac → Français"])
  }

  @Test func autoselectAndAnExplicitNoAreSharedToo() throws {
    let renditions = try Self.load([
      Self.rendition("English", "en", "aac", #", "default": false"#),
      Self.rendition("Commentary", "en", "aac", #", "autoselect": false, "id": "cm-aac""#),
      Self.rendition("Français", "fr", "aac"),
      Self.rendition("English", "en", "ac3"), Self.rendition("Commentary", "en", "ac3", #", "id": "cm-ac3""#),
      Self.rendition("Français", "fr", "ac3"),
    ])
    #expect(Self.defaults(renditions) == ["audio-aac → Français", "audio-ac3 → Français"])
    #expect(renditions.filter { !$0.autoselect }.map(\.groupID) == ["audio-aac", "audio-ac3"])
  }

  static let rejections: [Rejection] = [
    Rejection(
      ProfileJSON.profile([
        "audio":
          "[\(rendition("English", "en", "aac", #", "default": true"#)), \(rendition("Français", "fr", "aac")), \(rendition("English", "en", "ac3")), \(rendition("Français", "fr", "ac3", #", "default": true"#))]"
      ]),
      "$.audio[3].default",
      #"makes "Français" (fr) in group audio-aac a default, but "English" (en) in group audio-aac already is"#),
    Rejection(
      ProfileJSON.profile([
        "audio":
          "[\(rendition("English", "en", "aac", #", "default": true"#)), \(rendition("English", "en", "ac3", #", "default": false"#))]"
      ]),
      "$.audio[1].default", #"is false, but $.audio[0] sets true on "English" (en) in group audio-aac"#),
    Rejection(
      ProfileJSON.profile([
        "audio":
          "[\(rendition("English", "en", "aac", #", "default": true"#)), \(rendition("English", "en", "ac3", #", "autoselect": false"#))]"
      ]),
      "$.audio[1].autoselect", "must be true"),
    Rejection(
      ProfileJSON.profile([
        "audio": "[\(rendition("English", "en", "aac", #", "default": true, "autoselect": false"#))]"
      ]),
      "$.audio[0].autoselect", "must be true when default is true"),
    Rejection(
      ProfileJSON.profile([
        "audio":
          "[\(rendition("English", "en", "aac", #", "default": true"#)), \(rendition("Français", "fr", "aac", #", "default": true"#))]"
      ]),
      "$.audio[1].default", "already is"),
  ]

  @Test(arguments: rejections)
  func rejects(_ c: Rejection) {
    let error = #expect(throws: ProfileError.self) {
      try ProfileLoader.load(
        data: Data(c.json.utf8), file: "test.json", baseDirectory: URL(fileURLWithPath: "/profiles"))
    }
    #expect(error?.path == c.path, "\(String(describing: error))")
    #expect(error?.message.contains(c.message) == true, "\(String(describing: error))")
  }
}
