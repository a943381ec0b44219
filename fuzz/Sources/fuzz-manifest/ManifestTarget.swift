import Foundation
import FuzzSupport
import HLSPackCore

/// A batch manifest as `hlspack batch` reads it: the first byte chooses JSON
/// Lines or CSV, the rest is the file. Relative paths resolve against a folder
/// that does not exist, so that no input names a file next to the fuzzer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = fuzzInput(data, size)
  guard let first = input.first else { return 0 }
  let type = first & 1 == 0 ? "jsonl" : "csv"
  _ = try? BatchManifest.entries(Array(input.dropFirst()), file: "fuzz.\(type)", type: type, folder: base)
  return 0
}

private let base = URL(fileURLWithPath: "/nonexistent/hlspack-fuzz", isDirectory: true)
