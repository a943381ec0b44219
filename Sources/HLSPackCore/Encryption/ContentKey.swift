/// A 16-byte AES key and its 16-byte key id. The key bytes never leave this
/// type except to the cipher and the key file.
public struct ContentKey: Sendable, Equatable {
  public var id: [UInt8]
  public var bytes: [UInt8]

  public init(id: [UInt8], bytes: [UInt8]) {
    self.id = id
    self.bytes = bytes
  }

  /// The key id as 32 lower-case hex digits (how key files are named).
  public var idHex: String { Hex.encode(id) }
}
