import Testing

@testable import HLSPackCore

@Suite struct URIReferenceTests {
  /// The same resource named from the package root as from the playlist's
  /// folder (RFC 3986 §5.2 resolution).
  @Test(arguments: [
    ("../keys/k.key", "720p", "keys/k.key"),
    ("../../keys/k.key", "audio/en-aac-2ch", "keys/k.key"),
    ("./../keys/k.key", "720p", "keys/k.key"),
    ("k.key", "720p", "720p/k.key"),
    ("keys/k.key", "", "keys/k.key"),
    ("../../shared/k.key", "720p", "../shared/k.key"),
    ("../keys/k.key?v=1/2#a/../b", "720p", "keys/k.key?v=1/2#a/../b"),
  ])
  func relativeReferencesAreRebased(reference: String, folder: String, expected: String) {
    #expect(URIReference.fromPackageRoot(reference, writtenIn: folder) == expected)
  }

  /// A scheme or an absolute path resolves the same from any playlist (RFC 8216bis §4.4.6.5).
  @Test(arguments: [
    "skd://0123", "myapp-key://asset/720p/0", "https://keys.example.com/k", "/keys/k.key", "//cdn/k.key",
  ])
  func absoluteReferencesAreKept(reference: String) {
    #expect(URIReference.fromPackageRoot(reference, writtenIn: "audio/en") == reference)
  }

  @Test func scheme() {
    #expect(URIReference.scheme(of: "SKD://x") == "skd")
    #expect(URIReference.scheme(of: "../keys/a:b.key") == nil)
    #expect(URIReference.scheme(of: "my_app://x") == nil)
  }
}
