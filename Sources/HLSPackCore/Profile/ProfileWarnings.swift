/// Things a profile may do but should be told about; printed before work starts.
extension Profile {
  public var warnings: [String] {
    var list: [String] = []
    let encryption = self.encryption
    guard encryption.method != .none else { return list }
    if encryption.keyURI.scheme == "http" {
      list.append("the key URI uses plain http://, so keys travel unencrypted; use https:// or a custom scheme")
    }
    for path in encryption.exposedKeyFiles {
      list.append("the key file \(path) can be opened by other users; chmod 600 it")
    }
    if case .fixed = encryption.iv {
      list.append("a fixed IV repeats on every segment; use it only to match another tool's output")
    }
    return list
  }
}
