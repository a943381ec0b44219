import Foundation
import Testing

@testable import HLSPackCore

@Suite struct ProfileOverridesTests {
  let base: JSONValue = .object([
    "version": .number(1),
    "encryption": .object(["method": .string("aes-128"), "key_info": .string("k.keyinfo")]),
    "subtitles": .array([
      .object(["language": .string("en"), "file": .string("{stem}.en.vtt")]),
      .object(["id": .string("fr-forced"), "language": .string("fr"), "file": .string("{stem}.fr.vtt")]),
    ]),
  ])

  func member(_ value: JSONValue, _ path: String...) -> JSONValue? {
    var current: JSONValue? = value
    for key in path {
      switch current {
      case .object(let fields)?: current = fields[key]
      case .array(let items)?: current = Int(key).flatMap { items.indices.contains($0) ? items[$0] : nil }
      default: return nil
      }
    }
    return current
  }

  @Test func aKeySourceReplacesEveryOtherKeySourceOfTheProfile() throws {
    var overrides = ProfileOverrides()
    overrides.keySource = ("key_hex", "00112233445566778899aabbccddeeff")
    overrides.keyID = "ffeeddccbbaa99887766554433221100"
    overrides.seed = "title 7"
    let applied = try overrides.applied(to: base)
    #expect(member(applied, "encryption", "key_info") == nil)
    #expect(member(applied, "encryption", "key_hex") == .string("00112233445566778899aabbccddeeff"))
    #expect(member(applied, "encryption", "key_id") == .string("ffeeddccbbaa99887766554433221100"))
    #expect(member(applied, "encryption", "seed") == .string("title 7"))
    #expect(member(applied, "encryption", "method") == .string("aes-128"))
    #expect(overrides.field(forProfilePath: "$.encryption.key_hex") == "key_hex")
    #expect(overrides.field(forProfilePath: "$.encryption.scope") == nil)
  }

  @Test func subtitleFilesGoToTheTracksTheyName() throws {
    var overrides = ProfileOverrides()
    overrides.subtitles = .byID(["fr-forced": "/m/t.fr.vtt", "en": "/m/t.en.vtt"])
    let applied = try overrides.applied(to: base)
    #expect(member(applied, "subtitles", "0", "file") == .string("/m/t.en.vtt"))
    #expect(member(applied, "subtitles", "1", "file") == .string("/m/t.fr.vtt"))

    overrides.subtitles = .byID(["de": "/m/t.de.vtt"])
    #expect(
      throws: OverrideFailure(
        field: "subtitles.de", message: "the profile has no subtitle track \"de\" (it has: en, fr-forced)")
    ) {
      try overrides.applied(to: base)
    }
    overrides.subtitles = .onlyTrack("/m/t.vtt")
    #expect(throws: OverrideFailure.self) { try overrides.applied(to: base) }
  }
}
