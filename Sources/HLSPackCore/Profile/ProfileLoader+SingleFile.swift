extension ProfileLoader {
  /// `segment.single_file` with AES-128: each segment's byte range is one CBC
  /// run with its own padding, and its IV is the 16 bytes before it in the
  /// file, so that a client widening an I-frame range by the block before it
  /// (RFC 8216bis §6.3.6) decrypts it as well as one fetching the range alone.
  /// What would break that chain or the ranges' 16-byte alignment is refused.
  static func checkSingleFile(_ encryption: EncryptionSettings, file: String) throws {
    guard encryption.method == .aes128 else { return }
    switch encryption.iv {
    case .random: break
    case .sequence, .fixed:
      throw ProfileError(
        file: file, path: "$.encryption.iv",
        message:
          "segment.single_file with \"aes-128\" takes no fixed or sequence IV (nor the IV of a key_info file): it takes each range's IV from the 16 bytes before it in the file (the first range's is random): leave \"iv\" out or set it to \"random\""
      )
    }
    if encryption.clearLeadSegments > 0 {
      throw ProfileError(
        file: file, path: "$.encryption.clear_lead_segments",
        message:
          "a clear lead cannot be used with segment.single_file and \"aes-128\": the encrypted ranges would not start on 16-byte blocks of the file, which I-frame ranges need (RFC 8216bis §6.3.6)"
      )
    }
    if encryption.encryptInit {
      throw ProfileError(
        file: file, path: "$.encryption.encrypt_init",
        message:
          "an encrypted init section cannot be used with segment.single_file: its range would need a CBC stream and explicit IV of its own, which the single file's chained IVs do not give; use separate files or leave encrypt_init out"
      )
    }
  }
}
