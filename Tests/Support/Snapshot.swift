import Foundation
import Testing

/// Compares `text` with the golden file `folder/name` as a whole. With
/// `RECORD_SNAPSHOTS=1` the file is rewritten and the test fails on purpose, so
/// a recording run can never pass unnoticed.
public func assertSnapshot(
  _ text: String, named name: String, in folder: URL, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let file = folder.appendingPathComponent(name)
  if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: file)
    Issue.record(
      "recorded new baseline \(file.path); run again without RECORD_SNAPSHOTS", sourceLocation: sourceLocation)
    return
  }
  guard let data = FileManager.default.contents(atPath: file.path) else {
    Issue.record("no baseline at \(file.path); record one with RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
    return
  }
  let expected = String(decoding: data, as: UTF8.self)
  guard text != expected else { return }
  let got = text.split(separator: "\n", omittingEmptySubsequences: false)
  let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
  let line = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, want.count)
  Issue.record(
    """
    \(name) differs from line \(line + 1)
    --- expected
    \(expected)--- actual
    \(text)
    """, sourceLocation: sourceLocation)
}
