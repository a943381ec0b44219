import Foundation
import Testing

/// Test vectors sit next to the tests and are found through #filePath, so no
/// resource bundle is needed.
let vectorsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Vectors")
