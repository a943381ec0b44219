import Foundation
import Testing

/// Test vectors sit next to the tests and are found through #filePath, so no
/// resource bundle is needed.
let vectorsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Vectors")

func hex(_ text: String) throws -> [UInt8] {
  let digits = Array(text.filter { !$0.isWhitespace }.utf8)
  try #require(digits.count % 2 == 0, "odd number of hex digits in \(text)")
  return try stride(from: 0, to: digits.count, by: 2).map { i in
    try #require(UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16), "not hex: \(text)")
  }
}

func hex(_ bytes: [UInt8]) -> String {
  bytes.map { String(format: "%02x", $0) }.joined()
}
