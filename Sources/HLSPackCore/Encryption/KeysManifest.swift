/// `keys.json`: every key URI of a package with its key id, key file,
/// renditions, periods and segment IVs — the manifest an app team bundles.
/// Key bytes are present only when explicitly exported.
public struct KeysManifest: Sendable, Codable, Equatable {
  public struct Segment: Sendable, Codable, Equatable {
    public var uri: String
    /// The IV that encrypts the segment (`0x…`), also when the playlist leaves
    /// it implicit (sequence IVs) or FairPlay delivers it with the key.
    public var iv: String?
    /// `length@offset` in the rendition's single file (`segment.single_file`).
    public var byteRange: String?

    enum CodingKeys: String, CodingKey {
      case uri, iv
      case byteRange = "byte_range"
    }

    public init(uri: String, iv: String?, byteRange: String? = nil) {
      self.uri = uri
      self.iv = iv
      self.byteRange = byteRange
    }
  }

  public struct Key: Sendable, Codable, Equatable {
    public var uri: String
    /// For packages rewritten by `rewrite-keys`: the URI before the rewrite.
    public var previousURI: String?
    public var keyID: String
    /// Path of the 16-byte key file inside the package.
    public var keyFile: String
    public var renditions: [String]
    public var periods: [Int]
    public var segments: [Segment]
    /// The key as 32 hex digits; only with --export-keys / export_keys.
    public var key: String?

    enum CodingKeys: String, CodingKey {
      case uri, renditions, periods, segments, key
      case previousURI = "previous_uri"
      case keyID = "key_id"
      case keyFile = "key_file"
    }

    public init(
      uri: String, previousURI: String? = nil, keyID: String, keyFile: String, renditions: [String], periods: [Int],
      segments: [Segment], key: String? = nil
    ) {
      self.uri = uri
      self.previousURI = previousURI
      self.keyID = keyID
      self.keyFile = keyFile
      self.renditions = renditions
      self.periods = periods
      self.segments = segments
      self.key = key
    }
  }

  public var keys: [Key]

  public init(keys: [Key]) { self.keys = keys }
}
