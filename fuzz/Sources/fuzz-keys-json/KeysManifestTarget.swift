import Foundation
import FuzzSupport
import HLSPackCore

/// keys.json as `rewrite-keys` reads it from a package.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeysManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  _ = try? JSONDecoder().decode(KeysManifest.self, from: Data(fuzzInput(data, size)))
  return 0
}
