/// The master (multivariant) playlist: one EXT-X-STREAM-INF per variant, every
/// attribute measured from what was written.
public struct MultivariantPlaylist: Sendable {
  public struct Variant: Sendable, Equatable {
    public var uri: String
    public var bandwidth: Int
    public var averageBandwidth: Int
    public var codecs: [String]
    public var width: Int
    public var height: Int
    public var frameRate: Double
    public var hdcpLevel: HDCPLevel?
    public var videoRange: VideoRange
    /// SUPPLEMENTAL-CODECS: what a player with more than CODECS asks for may
    /// use, such as the Dolby Vision metadata over an HDR10 base layer.
    public var supplementalCodecs: [String]
    /// GROUP-ID of the EXT-X-MEDIA audio group this variant plays with.
    public var audioGroup: String?
    public var subtitleGroup: String?

    /// `width` 0: an audio-only variant (no RESOLUTION or FRAME-RATE).
    public init(
      uri: String, bandwidth: Int, averageBandwidth: Int, codecs: [String], width: Int, height: Int, frameRate: Double,
      hdcpLevel: HDCPLevel? = nil, videoRange: VideoRange = .sdr, supplementalCodecs: [String] = [],
      audioGroup: String? = nil, subtitleGroup: String? = nil
    ) {
      self.uri = uri
      self.bandwidth = bandwidth
      self.averageBandwidth = averageBandwidth
      self.codecs = codecs
      self.width = width
      self.height = height
      self.frameRate = frameRate
      self.hdcpLevel = hdcpLevel
      self.videoRange = videoRange
      self.supplementalCodecs = supplementalCodecs
      self.audioGroup = audioGroup
      self.subtitleGroup = subtitleGroup
    }
  }

  /// An EXT-X-MEDIA rendition (RFC 8216bis §4.4.6.1).
  public struct Media: Sendable, Equatable {
    public enum Kind: String, Sendable {
      case audio = "AUDIO"
      case subtitles = "SUBTITLES"
    }

    public var kind: Kind
    public var groupID: String
    public var name: String
    public var language: String
    public var isDefault: Bool
    public var autoselect: Bool
    /// Subtitles only.
    public var forced: Bool?
    /// Audio only: the channel count.
    public var channels: Int?
    public var uri: String

    public init(
      kind: Kind, groupID: String, name: String, language: String, isDefault: Bool, autoselect: Bool,
      forced: Bool? = nil,
      channels: Int? = nil, uri: String
    ) {
      self.kind = kind
      self.groupID = groupID
      self.name = name
      self.language = language
      self.isDefault = isDefault
      self.autoselect = autoselect
      self.forced = forced
      self.channels = channels
      self.uri = uri
    }

    var line: String {
      var attributes = [
        "TYPE=\(kind.rawValue)", "GROUP-ID=\"\(groupID)\"", "NAME=\"\(name)\"", "LANGUAGE=\"\(language)\"",
        "DEFAULT=\(isDefault ? "YES" : "NO")", "AUTOSELECT=\(autoselect ? "YES" : "NO")",
      ]
      if let forced { attributes.append("FORCED=\(forced ? "YES" : "NO")") }
      if let channels { attributes.append("CHANNELS=\"\(channels)\"") }
      attributes.append("URI=\"\(uri)\"")
      return "#EXT-X-MEDIA:" + attributes.joined(separator: ",")
    }
  }

  /// An EXT-X-I-FRAME-STREAM-INF: like a variant, without FRAME-RATE (RFC 8216bis §4.4.6.3).
  public struct IFrameVariant: Sendable, Equatable {
    public var uri: String
    public var bandwidth: Int
    public var averageBandwidth: Int
    public var codecs: [String]
    public var width: Int
    public var height: Int
    public var hdcpLevel: HDCPLevel?
    public var videoRange: VideoRange
    public var supplementalCodecs: [String]

    public init(
      uri: String, bandwidth: Int, averageBandwidth: Int, codecs: [String], width: Int, height: Int,
      hdcpLevel: HDCPLevel? = nil, videoRange: VideoRange = .sdr, supplementalCodecs: [String] = []
    ) {
      self.uri = uri
      self.bandwidth = bandwidth
      self.averageBandwidth = averageBandwidth
      self.codecs = codecs
      self.width = width
      self.height = height
      self.hdcpLevel = hdcpLevel
      self.videoRange = videoRange
      self.supplementalCodecs = supplementalCodecs
    }
  }

  public var variants: [Variant]
  public var media: [Media] = []
  public var iFrameVariants: [IFrameVariant]
  /// EXT-X-SESSION-KEY tags.
  public var sessionKeys: [KeyTag]
  /// True when every video segment starts with an IDR (Apple HLS Authoring Spec 9.11–9.12).
  public var independentSegments: Bool

  public init(
    variants: [Variant], iFrameVariants: [IFrameVariant] = [], sessionKeys: [KeyTag] = [], independentSegments: Bool
  ) {
    self.variants = variants
    self.iFrameVariants = iFrameVariants
    self.sessionKeys = sessionKeys
    self.independentSegments = independentSegments
  }

  /// Session keys take the EXT-X-KEY version rules (RFC 8216bis §8); nothing else here needs one.
  public var version: Int { sessionKeys.map(\.requiredVersion).max() ?? 1 }

  public func render() -> String {
    var lines = ["#EXTM3U"]
    if version > 1 { lines.append("#EXT-X-VERSION:\(version)") }
    if independentSegments { lines.append("#EXT-X-INDEPENDENT-SEGMENTS") }
    lines += sessionKeys.map { "#EXT-X-SESSION-KEY:\($0.attributes)" }
    lines += media.map(\.line)
    for v in Self.lowestBandwidthFirst(variants, \.bandwidth, audioOnly: { $0.width == 0 }) {
      var attributes = Self.streamAttributes(
        bandwidth: v.bandwidth, averageBandwidth: v.averageBandwidth, codecs: v.codecs,
        resolution: v.width > 0 ? (v.width, v.height) : nil, frameRate: v.frameRate, hdcpLevel: v.hdcpLevel,
        videoRange: v.videoRange, supplementalCodecs: v.supplementalCodecs)
      if let group = v.audioGroup { attributes.append("AUDIO=\"\(group)\"") }
      if let group = v.subtitleGroup { attributes.append("SUBTITLES=\"\(group)\"") }
      lines.append("#EXT-X-STREAM-INF:" + attributes.joined(separator: ","))
      lines.append(v.uri)
    }
    for v in Self.lowestBandwidthFirst(iFrameVariants, \.bandwidth, audioOnly: { _ in false }) {
      // Always a RESOLUTION (an I-frame variant is video), never a FRAME-RATE (RFC 8216bis §4.4.6.3).
      let attributes = Self.streamAttributes(
        bandwidth: v.bandwidth, averageBandwidth: v.averageBandwidth, codecs: v.codecs, resolution: (v.width, v.height),
        frameRate: 0, hdcpLevel: v.hdcpLevel, videoRange: v.videoRange, supplementalCodecs: v.supplementalCodecs)
      lines.append("#EXT-X-I-FRAME-STREAM-INF:" + (attributes + ["URI=\"\(v.uri)\""]).joined(separator: ","))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The attributes EXT-X-STREAM-INF and EXT-X-I-FRAME-STREAM-INF share, in
  /// the order both are written. RESOLUTION only for video; FRAME-RATE only
  /// when known (above 0); VIDEO-RANGE for HDR video only: absent means SDR
  /// (RFC 8216bis §4.4.6.2), and SDR variants stay as every client has always
  /// read them. SUPPLEMENTAL-CODECS beside CODECS, when there are any.
  private static func streamAttributes(
    bandwidth: Int, averageBandwidth: Int, codecs: [String], resolution: (width: Int, height: Int)?, frameRate: Double,
    hdcpLevel: HDCPLevel?, videoRange: VideoRange, supplementalCodecs: [String]
  ) -> [String] {
    var attributes = [
      "BANDWIDTH=\(bandwidth)", "AVERAGE-BANDWIDTH=\(averageBandwidth)", "CODECS=\"\(codecs.joined(separator: ","))\"",
    ]
    if !supplementalCodecs.isEmpty {
      attributes.append("SUPPLEMENTAL-CODECS=\"\(supplementalCodecs.joined(separator: ","))\"")
    }
    if let resolution { attributes.append("RESOLUTION=\(resolution.width)x\(resolution.height)") }
    if frameRate > 0 { attributes.append("FRAME-RATE=\(formatFrameRate(frameRate))") }
    if let hdcpLevel { attributes.append("HDCP-LEVEL=\(hdcpLevel.rawValue)") }
    if videoRange != .sdr { attributes.append("VIDEO-RANGE=\(videoRange.rawValue)") }
    return attributes
  }

  /// Audio-only variants come after every video variant: clients such as
  /// AVPlayer start with the first variant listed, and starting there would
  /// show no picture (GStreamer's hlsdemux2 even crashes switching up from it).
  /// Ties keep the profile's order.
  private static func lowestBandwidthFirst<Entry>(
    _ entries: [Entry], _ bandwidth: (Entry) -> Int, audioOnly: (Entry) -> Bool
  ) -> [Entry] {
    func rank(_ entry: (offset: Int, element: Entry)) -> (Int, Int, Int) {
      (audioOnly(entry.element) ? 1 : 0, bandwidth(entry.element), entry.offset)
    }
    return entries.enumerated().sorted { rank($0) < rank($1) }.map(\.element)
  }

  /// Three decimals, rounded (RFC 8216bis §4.4.6.2): 29.97002997 → "29.970".
  public static func formatFrameRate(_ fps: Double) -> String {
    let millis = Int((fps * 1000).rounded())
    let fraction = String(millis % 1000)
    return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }
}
