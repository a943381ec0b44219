import Foundation
import FuzzSupport
import HLSPackCore

/// The profile loader on the input as a profile file's contents. Relative
/// paths resolve against a folder that does not exist, so that no input
/// reads a file next to the fuzzer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProfile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = Data(fuzzInput(data, size))
  _ = try? ProfileLoader.load(data: input, file: "fuzz.json", baseDirectory: base, environment: environment)
  return 0
}

private let base = URL(fileURLWithPath: "/nonexistent/hlspack-fuzz", isDirectory: true)
private let environment = ["HLSPACK_KEY": "000102030405060708090a0b0c0d0e0f"]
