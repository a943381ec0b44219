import HLSPackCore

import HLSPackMedia

extension PackageVerifier {
  /// Decodes a segment's first AAC frames, when its config does not say, to
  /// learn whether the AAC carries SBR and PS (implicit HE-AAC signalling),
  /// until one segment of the playlist tells; the frames are dropped either way.
  static func resolvingAACTools(_ facts: SegmentMediaFacts?, known: inout Bool) -> SegmentMediaFacts? {
    guard var facts, let probe = facts.aacProbe else { return facts }
    facts.aacProbe = nil
    if facts.aacTools == nil, !known {
      facts.aacTools = AACToolsProbe.tools(probe)
      known = facts.aacTools != nil
    }
    return facts
  }
}
