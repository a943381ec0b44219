import Foundation
import HLSPackCore
import HLSPackCrypto

/// An initialization section with an AES-128 EXT-X-KEY in force at its
/// EXT-X-MAP: the playlist declares it encrypted (RFC 8216bis §4.4.4.4), so a
/// client decrypts it whole, AES-128-CBC with PKCS#7, with the key tag's IV,
/// which it must have (§4.4.4.5). Read and decrypted as a client does.
extension PackageVerifier {
  /// The decrypted section is what the segments under the EXT-X-MAP are
  /// inspected with; a section that is clear under the key tag, lacks an IV
  /// or does not decrypt to one is a finding.
  func checkEncryptedMap(
    _ segment: VerifiedMediaPlaylist.Segment, key: VerifiedMediaPlaylist.Key, resource: String, folder: String,
    file: String, run: inout Run
  ) {
    guard let map = segment.mapURI else { return }
    let line = segment.mapLine ?? segment.line
    func finding(_ rule: VerifyRule, _ detail: String) {
      run.findings.append(Finding(rule, file: file, line: line, segment: map, detail: detail))
    }
    let bytes: [UInt8]
    do {
      bytes = try readSection(resource, range: segment.mapRange)
    } catch {
      run.findings.append(
        Self.accessFinding(
          error, path: resource, otherwise: VerifyRules.segmentUnreadable, file: file, line: line, segment: map,
          note: " (EXT-X-MAP)"))
      return
    }
    if let clear = try? FragmentedInitSection(bytes) {
      run.facts.initSections[Self.sectionName(resource, range: segment.mapRange)] = .some(clear)
      finding(
        VerifyRules.mapAfterKey,
        "the EXT-X-KEY on line \(key.line) applies to this EXT-X-MAP, but its initialization section is clear")
      return
    }
    guard key.value("IV") != nil else {
      finding(VerifyRules.keyMapIVMissing, "the EXT-X-KEY on line \(key.line) has no IV attribute")
      return
    }
    // A malformed IV is key.iv-malformed's; a missing key, key.unavailable's or key.file-*'s.
    guard let iv = key.iv, let keyBytes = run.keys.store.bytes(for: key, file: file, folder: folder) else { return }
    guard !bytes.isEmpty, bytes.count % AES128CBC.blockSize == 0 else {
      finding(VerifyRules.segmentAES128Length, "\(bytes.count) bytes (EXT-X-MAP)")
      return
    }
    run.keys.uses.append(
      KeyRules.Use(key: Hex.encode(keyBytes), iv: iv, resource: resource, file: file, line: line, segment: map))
    let section: FragmentedInitSection
    do {
      let clear: [UInt8]
      do {
        clear = try run.cipher.decryptPadded(bytes, key: keyBytes, iv: iv)
      } catch {
        return finding(VerifyRules.segmentAES128Undecryptable, "PKCS#7 padding invalid after decryption (EXT-X-MAP)")
      }
      section = try FragmentedInitSection(clear)
    } catch {
      return finding(
        VerifyRules.segmentAES128Undecryptable, "decrypted bytes are not an initialization section: \(error)")
    }
    run.facts.initSections[Self.sectionName(resource, range: segment.mapRange)] = .some(section)
    if let problem = section.sampleDescriptionProblem {
      finding(VerifyRules.segmentSampleDescriptions, problem)
    }
  }
}
