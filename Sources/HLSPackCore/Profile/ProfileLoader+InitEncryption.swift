extension ProfileLoader {
  /// `encryption.encrypt_init` encrypts an fMP4 initialization section whole
  /// with AES-128, as RFC 8216bis §4.4.4.4–4.4.4.5 define it; no other
  /// method or container has one to encrypt that way.
  static func checkInitEncryption(_ encryption: EncryptionSettings, container: Container, file: String) throws {
    guard encryption.encryptInit else { return }
    var needs: [String] = []
    var reasons: [String] = []
    if encryption.method != .aes128 {
      needs.append("method \"aes-128\"")
      reasons.append(
        "SAMPLE-AES (cbcs) keeps the initialization section clear: its tenc box tells players how to decrypt")
    }
    if container != .fmp4 {
      needs.append("container \"fmp4\"")
      reasons.append("MPEG-TS segments have no initialization section")
    }
    guard !needs.isEmpty else { return }
    throw ProfileError(
      file: file, path: "$.encryption.encrypt_init",
      message: "needs \(needs.joined(separator: " and ")): \(reasons.joined(separator: "; "))")
  }
}
