import Foundation

/// Reads the profile's `encryption` object. Key material named by the profile
/// (a file, hex, an environment variable, an FFmpeg key-info file) is read here,
/// before any media work, so a missing key fails at once with its JSON path.
enum EncryptionReader {
  static let keySourceFields = ["key_file", "key_hex", "key_env", "key_info"]

  static func read(_ reader: FieldReader, baseDirectory: URL, environment: [String: String]) throws
    -> EncryptionSettings
  {
    var r = reader
    let method =
      try r.oneOf("method", EncryptionMethod.allCases.map(\.rawValue)).flatMap(EncryptionMethod.init) ?? .none
    var settings = EncryptionSettings(method: method)

    let keyInfo = try readKeySource(&r, into: &settings, baseDirectory: baseDirectory, environment: environment)

    if let hex = try r.string("key_id") {
      guard let id = Hex.decode(hex), id.count == 16 else {
        throw r.error("key_id", "must be 16 bytes as 32 hex digits")
      }
      settings.keyID = id
    }
    settings.scope = try r.oneOf("scope", KeyScope.allCases.map(\.rawValue)).flatMap(KeyScope.init) ?? .asset
    settings.rotateEvery = try r.integer("rotate_every", in: 1...1_000_000)

    try readKeyURIAndIV(&r, keyInfo: keyInfo, into: &settings)

    settings.keyFormat = try r.quotedString("keyformat")
    settings.keyFormatVersions = try r.quotedString("keyformat_versions")
    if let v = settings.keyFormatVersions,
      v.split(separator: "/", omittingEmptySubsequences: false).contains(where: { Int($0).map { $0 < 1 } ?? true })
    {
      throw r.error("keyformat_versions", "must be positive integers separated by '/', such as \"1\" or \"1/2\"")
    }
    settings.seed = try r.string("seed")
    if settings.seed?.isEmpty == true { throw r.error("seed", "must not be empty") }
    settings.exportKeys = try r.bool("export_keys") ?? false
    settings.writeKeyInfo = try r.bool("write_key_info") ?? false
    if let folder = try r.string("keys_dir") {
      guard !folder.isEmpty else { throw r.error("keys_dir", "must not be empty") }
      settings.keysFolder = ProfileLoader.resolve(folder, against: baseDirectory)
    }
    // Variants that share keys should announce them in the master (RFC 8216bis §4.4.6.5),
    // unless the keys rotate: then every future key would be handed out up front.
    settings.sessionKey = try r.bool("session_key") ?? (method != .none && settings.rotateEvery == nil)
    settings.clearLeadSegments = try r.integer("clear_lead_segments", in: 0...1_000_000) ?? 0
    settings.encryptInit = try r.bool("encrypt_init") ?? false
    try readFairPlay(&r, into: &settings)
    // Apple's rule for protected content (Apple HLS Authoring Spec 13.5–13.7); clear or AES-128 test
    // fixtures are not held back on outputs without HDCP unless asked.
    switch try r.oneOf("hdcp_level", ["auto", "none", "type-0", "type-1", "omit"]) {
    case "auto"?: settings.hdcp = .byResolution
    case "none"?: settings.hdcp = .fixed(.none)
    case "type-0"?: settings.hdcp = .fixed(.type0)
    case "type-1"?: settings.hdcp = .fixed(.type1)
    case "omit"?: settings.hdcp = .omitted
    default: settings.hdcp = settings.fairPlay ? .byResolution : .omitted
    }
    try r.finish()
    try checkConsistency(settings, r)
    return settings
  }

  /// One of key_file, key_hex, key_env and key_info; the key-info file, when that is the one.
  private static func readKeySource(
    _ r: inout FieldReader, into settings: inout EncryptionSettings, baseDirectory: URL, environment: [String: String]
  ) throws -> FFmpegKeyInfo? {
    var keyInfo: FFmpegKeyInfo?
    let given = try keySourceFields.compactMap { field in try r.string(field).map { (field, $0) } }
    if given.count > 1 {
      throw r.error(given[1].0, "only one key source may be given; \(given[0].0) is set too")
    }
    if let (field, value) = given.first {
      switch field {
      case "key_file":
        settings.keySource = .fixed(
          try readKeyFile(ProfileLoader.resolve(value, against: baseDirectory), r, field, into: &settings))
      case "key_hex":
        settings.keySource = .fixed(try hexKey(value, r, field, what: "key_hex"))
      case "key_env":
        guard let hex = environment[value] else { throw r.error(field, "environment variable \(value) is not set") }
        settings.keySource = .fixed(try hexKey(hex, r, field, what: "environment variable \(value)"))
      default:
        let url = ProfileLoader.resolve(value, against: baseDirectory)
        let text: String
        do {
          let bytes = try SmallFile.read(url.path, limit: 64 << 10)
          guard let utf8 = String(validating: bytes, as: UTF8.self) else {
            throw r.error(field, "the key-info file \(url.path) is not UTF-8 text")
          }
          text = utf8
        } catch let failure as SmallFile.Failure {
          throw r.error(field, "cannot read the key-info file \(url.path) \(failure.reason)")
        }
        switch FFmpegKeyInfo.parse(text) {
        case .failure(let e): throw r.error(field, "\(url.path): \(e)")
        case .success(let info):
          keyInfo = info
          settings.keyFiles.append(url.path)
          // FFmpeg reads the key path relative to its working folder; a profile's
          // paths are relative to their file, so relative here means the key-info file's folder.
          let keyURL = ProfileLoader.resolve(info.keyPath, against: url.deletingLastPathComponent())
          settings.keySource = .fixed(try readKeyFile(keyURL, r, field, into: &settings))
        }
      }
    }
    return keyInfo
  }

  /// The key URI and IV, which a key-info file may give instead.
  private static func readKeyURIAndIV(
    _ r: inout FieldReader, keyInfo: FFmpegKeyInfo?, into settings: inout EncryptionSettings
  ) throws {
    if let text = try r.string("key_uri") {
      if keyInfo != nil { throw r.error("key_uri", "is set, but key_info already gives the key URI") }
      do {
        settings.keyURI = try KeyURITemplate(text)
      } catch {
        throw r.error("key_uri", error.description)
      }
    } else if let keyInfo {
      do {
        settings.keyURI = try KeyURITemplate(keyInfo.uri)
      } catch {
        throw r.error("key_info", "its key URI \(error.description)")
      }
    }

    if let iv = try r.string("iv") {
      if keyInfo?.iv != nil { throw r.error("iv", "is set, but key_info already gives the IV") }
      switch iv {
      case "random": settings.iv = .random
      case "sequence": settings.iv = .sequence
      default:
        guard let bytes = Hex.decode(iv), bytes.count == 16 else {
          throw r.error("iv", "must be \"random\", \"sequence\" or a fixed IV of 32 hex digits, found \"\(iv)\"")
        }
        settings.iv = .fixed(bytes)
      }
    } else if let fixed = keyInfo?.iv {
      settings.iv = .fixed(fixed)
    }
  }

  /// FairPlay: SAMPLE-AES with Apple's key format and skd:// URIs.
  private static func readFairPlay(_ r: inout FieldReader, into settings: inout EncryptionSettings) throws {
    settings.fairPlay = try r.bool("fairplay") ?? false
    if settings.fairPlay {
      guard settings.method == .sampleAES else { throw r.error("fairplay", "needs method \"sample-aes\"") }
      for field in ["keyformat", "keyformat_versions"] where r.wasGiven(field) {
        throw r.error(field, "is set by fairplay (com.apple.streamingkeydelivery, version 1)")
      }
      settings.keyFormat = "com.apple.streamingkeydelivery"
      settings.keyFormatVersions = "1"
      if !r.wasGiven("key_uri") {
        settings.keyURI = (try? KeyURITemplate("skd://{key_id}")) ?? settings.keyURI
      } else if settings.keyURI.scheme != "skd" {
        throw r.error("key_uri", "FairPlay key URIs use the skd:// scheme")
      }
      if settings.iv == .sequence {
        throw r.error(
          "iv",
          "\"sequence\" cannot be used with fairplay: the key server delivers one IV with each key and the playlist "
            + "carries none, so no client derives it from the media sequence number; use \"random\" or a fixed IV")
      }
    }
  }

  private static func checkConsistency(_ s: EncryptionSettings, _ r: FieldReader) throws {
    // Not "seed": it also makes encoding bit-exact, which a clear package wants too (as with --seed).
    let explicit =
      [
        "key_uri", "key_id", "scope", "rotate_every", "iv", "keyformat", "keyformat_versions", "export_keys",
        "write_key_info", "keys_dir", "fairplay", "session_key", "clear_lead_segments", "hdcp_level",
        "encrypt_init",
      ] + keySourceFields
    if s.method == .none {
      if let field = explicit.first(where: { r.wasGiven($0) }) {
        throw r.error(field, "is set but method is \"none\": nothing would be encrypted")
      }
      return
    }
    if case .fixed = s.keySource {
      if s.rotateEvery != nil { throw r.error("rotate_every", "needs generated keys: one given key cannot rotate") }
      if s.scope == .rendition {
        throw r.error("scope", "\"rendition\" needs generated keys: one given key cannot differ per rendition")
      }
    }
    if s.keyID != nil, s.rotateEvery != nil || s.scope == .rendition {
      throw r.error("key_id", "names one key, but rotation or per-rendition scope makes several")
    }
    if let conflict = s.keysFolderConflict { throw r.error("keys_dir", conflict) }
    let template = s.keyURI
    let distinguishesKeys = template.usesKeyID || template.text.contains("{key_file}")
    if s.rotateEvery != nil, !(distinguishesKeys || template.usesPeriod) {
      throw r.error("key_uri", "every key period needs its own URI: use {period}, {key_id} or {key_file}")
    }
    if s.scope == .rendition, !(distinguishesKeys || template.usesRendition) {
      throw r.error("key_uri", "every rendition's key needs its own URI: use {rendition}, {key_id} or {key_file}")
    }
  }

  /// Only a regular file of exactly 16 bytes is read: a device or a pipe
  /// named by mistake would never end. The file is opened once and checked
  /// through its descriptor (non-blocking, so a pipe cannot stall the open),
  /// so what is checked is what is read. A key file other users can open is
  /// noted for a warning, as OpenSSH does for private keys.
  private static func readKeyFile(
    _ url: URL, _ r: FieldReader, _ field: String, into settings: inout EncryptionSettings
  ) throws -> [UInt8] {
    let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw r.error(field, "cannot read the key file \(url.path) \(SystemError.last.quoted)")
    }
    defer { close(descriptor) }
    guard let status = try? FileStatus(descriptor: descriptor), status.kind == .regular else {
      throw r.error(field, "the key file \(url.path) is not a regular file")
    }
    guard status.size == 16 else {
      throw r.error(field, "the key file \(url.path) holds \(status.size) bytes; an AES-128 key file holds exactly 16")
    }
    var key = [UInt8](repeating: 0, count: 16)
    guard Glibc.read(descriptor, &key, key.count) == key.count else {
      throw r.error(field, "cannot read the key file \(url.path) \(SystemError.last.quoted)")
    }
    if status.permissions & 0o077 != 0 { settings.exposedKeyFiles.append(url.path) }
    settings.keyFiles.append(url.path)
    return key
  }

  private static func hexKey(_ text: String, _ r: FieldReader, _ field: String, what: String) throws -> [UInt8] {
    guard let bytes = Hex.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == 16 else {
      throw r.error(field, "\(what) must hold a 16-byte key as 32 hex digits")
    }
    return bytes
  }
}
