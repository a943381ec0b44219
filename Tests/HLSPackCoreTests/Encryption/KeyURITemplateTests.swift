import Testing

@testable import HLSPackCore

@Suite struct KeyURITemplateTests {
  static let values = KeyURITemplate.Values(
    asset: "movie", rendition: "720p", keyID: "00112233445566778899aabbccddeeff", period: 3, keyFile: "../keys/k3.key")

  @Test(arguments: [
    ("{key_file}", "../keys/k3.key"),
    ("skd://{key_id}", "skd://00112233445566778899aabbccddeeff"),
    ("https://keys.example.com/{key_id}", "https://keys.example.com/00112233445566778899aabbccddeeff"),
    ("myapp-key://{asset}/{rendition}/{period}", "myapp-key://movie/720p/3"),
    ("keys/{rendition}-{period}-{period}.key", "keys/720p-3-3.key"),
    ("plain/relative.key", "plain/relative.key"),
    (
      "https://k.example.com/my%20keys/{key_id}?v=1&x=[a]",
      "https://k.example.com/my%20keys/00112233445566778899aabbccddeeff?v=1&x=[a]"
    ),
  ])
  func renders(template: String, expected: String) throws {
    #expect(try KeyURITemplate(template).render(Self.values) == expected)
  }

  /// Asset and rendition names come from file and folder names: a quote would
  /// end URI="…" (RFC 8216bis §4.2), a space or '#' would break the URI.
  @Test func namesArePercentEncoded() throws {
    let values = KeyURITemplate.Values(
      asset: #"my "clip" #1 été"#, rendition: "audio/en fr", keyID: "00112233445566778899aabbccddeeff", period: 0,
      keyFile: "../keys/k.key")
    let uri = try KeyURITemplate("myapp-key://{asset}/{rendition}/{key_id}").render(values)
    #expect(uri == "myapp-key://my%20%22clip%22%20%231%20%C3%A9t%C3%A9/audio/en%20fr/00112233445566778899aabbccddeeff")
    #expect(QuotedString.forbiddenCharacter(in: uri) == nil)
    #expect(try KeyURITemplate("k://{asset}").render(Self.values) == "k://movie", "plain names unchanged")
  }

  @Test func theDefaultPointsAtTheKeyFile() {
    #expect(KeyURITemplate.keyFile.text == "{key_file}")
    #expect(KeyURITemplate.keyFile.scheme == nil)
  }

  @Test(
    arguments: [
      ("skd://x", "skd"), ("HTTPS://k", "https"), ("com.example+key-v1.2://k", "com.example+key-v1.2"),
      ("keys/a:b.key", nil), ("../k", nil), ("?x:y", nil),
    ] as [(String, String?)])
  func scheme(template: String, expected: String?) throws {
    #expect(try KeyURITemplate(template).scheme == expected)
  }

  @Test func placeholderUse() throws {
    let template = try KeyURITemplate("k://{rendition}/{key_id}")
    #expect(template.usesRendition && template.usesKeyID && !template.usesPeriod)
  }

  @Test(arguments: [
    ("", "must not be empty"),
    (#"k"ey"#, "a double quote"),
    ("k\ney", "a line break (U+000A)"),
    ("k\rey", "a line break (U+000D)"),
    ("k\u{7F}ey", "a control character (U+007F)"),
    ("k://{asset", #"unclosed "{""#),
    ("k://a}", #""}" without "{""#),
    ("k://{kid}", "unknown placeholder {kid}"),
    // RFC 3986 §3.1: a scheme has no '_' and starts with a letter.
    ("my_app://k", #""my_app" is not a valid URI scheme"#),
    ("1app://k", #""1app" is not a valid URI scheme"#),
    // RFC 3986: ':' in the first segment ends a scheme, so none may be empty or a placeholder.
    (":{key_id}", "the URI scheme before it is empty"),
    ("{key_id}:x", "a placeholder cannot stand there"),
    // The template's own text is written as it is: it must already be a valid URI (RFC 3986).
    ("https://k.example.com/my key/{key_id}", "contains a space"),
    ("clé/{key_id}", #"contains "é""#),
    ("k://a<b>/{key_id}", #"contains "<""#),
    ("k://%zz/{key_id}", "a '%' not followed by two hex digits"),
    ("k://{key_id}%2", "a '%' not followed by two hex digits"),
    // C1 controls and the Unicode line separators break lines for many readers.
    ("k://a\u{85}b", "a line break (U+0085)"),
    ("k://a\u{9B}b", "a control character (U+009B)"),
    ("k://a\u{2028}b", "a line break (U+2028)"),
    // The key would travel inside the playlist.
    ("data:application/octet-stream;base64,AAAA", "data: URI"),
    ("DATA:,x", "data: URI"),
  ])
  func rejects(template: String, message: String) {
    let error = #expect(throws: KeyURITemplateError.self) { try KeyURITemplate(template) }
    #expect(error?.description.contains(message) == true, "\(String(describing: error))")
  }
}
