import HLSPackCore

/// Rules over the keys and IVs of every segment in a package.
public enum KeyRules {
  /// One encrypted segment: what identifies its key (the key bytes in hex
  /// when known, else the resolved key URI), its IV and the resource it is
  /// read from, so that an I-frame range of a segment is not a second use.
  public struct Use: Sendable {
    public var key: String
    public var iv: [UInt8]
    public var resource: String
    public var file: String
    public var line: Int
    public var segment: String

    public init(key: String, iv: [UInt8], resource: String, file: String, line: Int, segment: String) {
      self.key = key
      self.iv = iv
      self.resource = resource
      self.file = file
      self.line = line
      self.segment = segment
    }
  }

  /// Two different resources under one (key, IV) pair leak what their clear
  /// bytes have in common (the first blocks of every TS segment are alike).
  public static func uniquePairs(_ uses: [Use]) -> [Finding] {
    var resources: [String: [String]] = [:]
    var findings: [Finding] = []
    for use in uses {
      let pair = use.key + "/" + Hex.encode(use.iv)
      let earlier = resources[pair, default: []]
      guard !earlier.contains(use.resource) else { continue }
      resources[pair, default: []].append(use.resource)
      if let earlier = earlier.first {
        findings.append(
          Finding(
            VerifyRules.keyIVReused, file: use.file, line: use.line, segment: use.segment,
            detail: "IV \(KeyTag.formatIV(use.iv)) under the same key also encrypts \(earlier)"))
      }
    }
    return findings
  }
}
