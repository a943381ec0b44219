import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

@Suite struct BatchManifestTests {
  let folder: TemporaryFolder

  init() throws { folder = try TemporaryFolder() }

  func manifest(_ name: String, _ text: String) throws -> URL {
    let url = folder.url.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url
  }

  func failure(_ name: String, _ text: String) throws -> ManifestError {
    let url = try manifest(name, text)
    do {
      _ = try BatchManifest.load(contentsOf: url)
    } catch let error as ManifestError {
      #expect(error.file == url.path)
      return error
    }
    Issue.record("\(name) was accepted")
    return ManifestError(file: "", line: nil, field: nil, message: "")
  }

  @Test func jsonLinesGivePathsRelativeToTheManifestAndOverrides() throws {
    let url = try manifest(
      "m.jsonl",
      """
      {"input": "a/movie.mp4"}

      {"input": "/abs/b.mov", "asset": "bee", "key_hex": "00112233445566778899aabbccddeeff", "key_id": "ffeeddccbbaa99887766554433221100", "key_uri": "skd://{key_id}", "seed": "s", "subtitles": {"en": "b.en.vtt"}, "profile": "p.json"}
      """)
    let folder = url.deletingLastPathComponent()
    let entries = try BatchManifest.load(contentsOf: url)
    #expect(entries.map(\.line) == [1, 3])
    #expect(entries[0].input.path == folder.appendingPathComponent("a/movie.mp4").path)
    #expect(entries[0].asset == "movie")
    #expect(entries[0].overrides == ProfileOverrides())
    #expect(entries[1].asset == "bee")
    #expect(entries[1].profile?.path == folder.appendingPathComponent("p.json").path)
    #expect(entries[1].overrides.keySource?.field == "key_hex")
    #expect(entries[1].overrides.keyID == "ffeeddccbbaa99887766554433221100")
    #expect(entries[1].overrides.subtitles == .byID(["en": folder.appendingPathComponent("b.en.vtt").path]))
  }

  @Test func csvQuotesAndSubtitleColumns() throws {
    let url = try manifest(
      "m.csv",
      "\u{FEFF}input,asset,subtitles.en,subtitles.fr,key_file\r\n\"x, \"\"quoted\"\".mp4\",,x.en.vtt,,keys/x.key\r\ny.mp4,why,,y.fr.srt,\n"
    )
    let folder = url.deletingLastPathComponent()
    let entries = try BatchManifest.load(contentsOf: url)
    #expect(entries.map(\.line) == [2, 3])
    #expect(entries[0].input.lastPathComponent == "x, \"quoted\".mp4")
    #expect(entries[0].asset == "x, \"quoted\"")
    #expect(entries[0].overrides.subtitles == .byID(["en": folder.appendingPathComponent("x.en.vtt").path]))
    #expect(entries[0].overrides.keySource?.value == folder.appendingPathComponent("keys/x.key").path)
    #expect(entries[1].asset == "why")
    #expect(entries[1].overrides.keySource == nil)
  }

  @Test(
    arguments: [
      ("m.csv", "asset\nx\n", 1, "input", "no \"input\" column"),
      ("m.csv", "input,asset\na.mp4,same\nb.mp4,same\n", 3, "asset", "already made by line 2"),
      ("m.csv", "input\na.mp4\nb/a.mov\n", 3, "input", "asset \"a\" is already made by line 2"),
      ("m.csv", "input,asset\na.mp4\n", 2, nil, "has 1 fields; the header row has 2"),
      ("m.csv", "input\n\"a.mp4\n", 2, nil, "never closed"),
      (
        "m.jsonl", "{\"input\": \"a.mp4\"}\n{\"input\": \"b.mp4\"\n", 2, nil,
        "not a JSON object (column 18: expected ',' or '}' after an object member, found the end of the file)"
      ),
      ("m.jsonl", "[\"a.mp4\"]\n", 1, nil, "expected a JSON object, found an array"),
      ("m.jsonl", "{\"input\": \"a.mp4\", \"colour\": \"red\"}\n", 1, "colour", "unknown field"),
      ("m.jsonl", "{\"asset\": \"a\"}\n", 1, "input", "is required"),
      ("m.jsonl", "{\"input\": \"a.mp4\", \"seed\": 7}\n", 1, "seed", "expected a string, found a number"),
      (
        "m.jsonl", "{\"input\": \"a.mp4\", \"key_hex\": \"00\", \"key_env\": \"K\"}\n", 1, "key_env",
        "only one key source"
      ),
      ("m.jsonl", "{\"input\": \"a.mp4\", \"asset\": \".hidden\"}\n", 1, "asset", "hidden"),
      ("m.jsonl", "{\"input\": \"a.mp4\", \"asset\": \"a/b\"}\n", 1, "asset", "no '/'"),
      ("m.jsonl", "{\"input\": \"a.mp4\", \"asset\": \"\"}\n", 1, "asset", "must not be empty"),
    ] as [(String, String, Int, String?, String)])
  func refusals(name: String, text: String, line: Int, field: String?, words: String) throws {
    let error = try failure(name, text)
    #expect(error.line == line, "\(error)")
    #expect(error.field == field, "\(error)")
    #expect(error.message.contains(words), "\(error)")
  }

  @Test func refusesUnknownTypesAndEmptyManifests() throws {
    #expect(try failure("m.txt", "input\n").message.contains("name it .jsonl"))
    #expect(try failure("m.jsonl", "\n\n").message.contains("lists no asset"))
    #expect(try failure("m.csv", "input\n").message.contains("lists no asset"))
  }
}
