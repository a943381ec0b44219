import Foundation
import HLSPackCore
import HLSPackTestSupport
import Testing

@Suite("Encryption modes")
struct EncryptionModeTests {
  @Test func methodNoneWritesClearSegmentsAndNoKeyTag() throws {
    let package = try EncodedPackage.with(encryption: #"{"method": "none"}"#)
    for variant in package.master.variants {
      let playlist = try package.playlist(variant.uri)
      #expect(playlist.values(of: "#EXT-X-KEY").isEmpty)
      for (index, segment) in playlist.segments.enumerated() {
        let bytes = try package.clearSegment(variant: variant.uri, segment, index: index)
        _ = try TransportStream(bytes)
      }
    }
    #expect(!FileManager.default.fileExists(atPath: package.folder.appendingPathComponent("keys").path))
  }

  @Test func sequenceIVsAreImplicitAndDecryptWithTheMediaSequenceNumber() throws {
    let package = try EncodedPackage.with(encryption: #"{"method": "aes-128", "iv": "sequence", "scope": "rendition"}"#)
    for variant in package.master.variants {
      let playlist = try package.playlist(variant.uri)
      let tags = playlist.values(of: "#EXT-X-KEY")
      #expect(tags.count == 1, "one key tag covers every segment")
      #expect(tags.allSatisfy { !$0.contains("IV=") })
      for (index, segment) in playlist.segments.enumerated() {
        // clearSegment derives IV = MSN when the tag has none; openssl fails on a wrong IV's padding
        // or yields a TS without sync bytes.
        _ = try TransportStream(try package.clearSegment(variant: variant.uri, segment, index: index))
      }
      let decode = try Command.run(
        "ffmpeg",
        [
          "-v", "error", "-allowed_extensions", "ALL", "-i", package.folder.appendingPathComponent(variant.uri).path,
          "-f", "null", "-",
        ])
      #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
    }
  }

  @Test func customKeyURIIsWrittenVerbatimAndTheKeyFileStillExists() throws {
    let package = try EncodedPackage.with(encryption: #"{"method": "aes-128", "key_uri": "skd://fixture-key"}"#)
    let variant = try #require(package.master.variants.first)
    let playlist = try package.playlist(variant.uri)
    #expect(playlist.segments.allSatisfy { $0.keyAttributes?["URI"] == "skd://fixture-key" })
    let keys = try FileManager.default.contentsOfDirectory(atPath: package.folder.appendingPathComponent("keys").path)
    #expect(keys.count == 1)
  }
}
