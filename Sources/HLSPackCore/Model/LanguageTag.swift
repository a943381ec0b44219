/// Matches a stream's language tag (often ISO 639-2, e.g. "eng") against a
/// profile's BCP 47 tag (e.g. "en" or "en-GB") by primary language.
public enum LanguageTag {
  static let threeToTwo: [String: String] = [
    "eng": "en", "fra": "fr", "fre": "fr", "deu": "de", "ger": "de", "spa": "es", "ita": "it", "por": "pt",
    "nld": "nl", "dut": "nl", "swe": "sv", "nor": "no", "dan": "da", "fin": "fi", "pol": "pl", "ces": "cs",
    "cze": "cs", "rus": "ru", "ukr": "uk", "tur": "tr", "ell": "el", "gre": "el", "heb": "he", "ara": "ar",
    "hin": "hi", "jpn": "ja", "kor": "ko", "zho": "zh", "chi": "zh", "tha": "th", "vie": "vi", "ind": "id",
    "hun": "hu", "ron": "ro", "rum": "ro", "cat": "ca",
  ]

  public static func primary(_ tag: String) -> String {
    let first = tag.split(separator: "-").first.map { $0.lowercased() } ?? tag.lowercased()
    return threeToTwo[first] ?? first
  }

  public static func matches(_ a: String, _ b: String) -> Bool { primary(a) == primary(b) }
}
