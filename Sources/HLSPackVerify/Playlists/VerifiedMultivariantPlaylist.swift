import HLSPackCore
import HLSPackM3U8

/// The variants and renditions of a multivariant playlist, as written.
public struct VerifiedMultivariantPlaylist: Sendable {
  public struct Variant: Sendable {
    public var uri: String
    /// The line of the EXT-X-STREAM-INF (or EXT-X-I-FRAME-STREAM-INF) tag.
    public var line: Int
    public var iFrame: Bool
    public var attributes: [M3U8Attribute]

    public func value(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
    /// nil when absent or not a decimal-integer (`playlist.number-invalid` says so).
    public var bandwidth: UInt64? { number("BANDWIDTH") }
    public var averageBandwidth: UInt64? { number("AVERAGE-BANDWIDTH") }

    /// A decimal-integer attribute, written unquoted as its type is.
    private func number(_ name: String) -> UInt64? {
      attributes.first { $0.name == name && !$0.quoted }.flatMap { PlaylistNumber.decimalInteger($0.value) }
    }
  }

  public struct Rendition: Sendable {
    public var type: String
    public var groupID: String
    public var uri: String?
    public var line: Int
    public var attributes: [M3U8Attribute]

    public func value(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
  }

  public var variants: [Variant] = []
  public var renditions: [Rendition] = []

  public init(_ text: PlaylistText) {
    var pending: PlaylistText.Tag?
    for entry in text.entries {
      switch entry {
      case .tag(let tag):
        switch tag.name {
        case "EXT-X-STREAM-INF": pending = tag
        case "EXT-X-I-FRAME-STREAM-INF":
          if let uri = tag.attribute("URI")?.value {
            variants.append(Variant(uri: uri, line: tag.line, iFrame: true, attributes: tag.attributes))
          }
        case "EXT-X-MEDIA":
          renditions.append(
            Rendition(
              type: tag.attribute("TYPE")?.value ?? "", groupID: tag.attribute("GROUP-ID")?.value ?? "",
              uri: tag.attribute("URI")?.value, line: tag.line, attributes: tag.attributes))
        default: break
        }
      case .uri(let uri, _):
        if let tag = pending {
          variants.append(Variant(uri: uri, line: tag.line, iFrame: false, attributes: tag.attributes))
        }
        pending = nil
      }
    }
  }

  /// The renditions a variant may be played with for each group attribute it names.
  public func renditions(of variant: Variant, type: String) -> [Rendition] {
    guard let attribute = Self.groupAttributes.first(where: { $0.type == type })?.attribute,
      let group = variant.value(attribute)
    else { return [] }
    return renditions.filter { $0.type == type && $0.groupID == group }
  }

  /// The URIs of the renditions of each group `variant` names, a list per
  /// group attribute (empty when it names none, or its members have no URI):
  /// what `HeaviestCombination` combines.
  public func renditionURIs(of variant: Variant) -> [[String]] {
    Self.groupAttributes.map { renditions(of: variant, type: $0.type).compactMap(\.uri) }
  }

  /// EXT-X-STREAM-INF attributes that name an EXT-X-MEDIA group, and the TYPE it must have.
  public static let groupAttributes: [(attribute: String, type: String)] = [
    ("AUDIO", "AUDIO"), ("VIDEO", "VIDEO"), ("SUBTITLES", "SUBTITLES"), ("CLOSED-CAPTIONS", "CLOSED-CAPTIONS"),
  ]
}
