import HLSPackCore

/// Rules over the keys and IVs of every segment in a package.
public enum KeyRules {
  /// One encrypted segment: what identifies its key (the key bytes in hex
  /// when known, else the resolved key URI), its IV and the resource it is
  /// read from, so that an I-frame range of a segment is not a second use;
  /// a media segment that is a byte range of its resource (one file per
  /// rendition) also gives the range's offset.
  public struct Use: Sendable {
    public var key: String
    public var iv: [UInt8]
    public var resource: String
    public var file: String
    public var line: Int
    public var segment: String
    /// A media segment's byte-range offset; nil for a whole resource and for I-frame ranges.
    public var offset: Int?

    public init(
      key: String, iv: [UInt8], resource: String, file: String, line: Int, segment: String, offset: Int? = nil
    ) {
      self.key = key
      self.iv = iv
      self.resource = resource
      self.file = file
      self.line = line
      self.segment = segment
      self.offset = offset
    }

    /// Another segment's bytes: another resource, or another media range of the same one.
    func isAnother(than other: Use) -> Bool {
      resource != other.resource || (offset != nil && other.offset != nil && offset != other.offset)
    }

    /// The same segment again: an I-frame range of a whole segment, or a segment listed twice.
    func isSame(as other: Use) -> Bool { resource == other.resource && offset == other.offset }
  }

  /// Two different resources, or two media ranges of one, under one (key,
  /// IV) pair leak what their clear bytes have in common (the first blocks of
  /// every TS segment are alike).
  public static func uniquePairs(_ uses: [Use]) -> [Finding] {
    var byPair: [String: [Use]] = [:]
    var findings: [Finding] = []
    for use in uses {
      let pair = use.key + "/" + Hex.encode(use.iv)
      let earlier = byPair[pair, default: []]
      byPair[pair, default: []].append(use)
      guard !earlier.contains(where: { $0.isSame(as: use) }) else { continue }
      if let first = earlier.first(where: { $0.isAnother(than: use) }) {
        let what = first.offset.map { "\(first.resource) (its range at byte \($0))" } ?? first.resource
        findings.append(
          Finding(
            VerifyRules.keyIVReused, file: use.file, line: use.line, segment: use.segment,
            detail: "IV \(KeyTag.formatIV(use.iv)) under the same key also encrypts \(what)"))
      }
    }
    return findings
  }
}
