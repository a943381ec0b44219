import Foundation
import Testing

/// docs/architecture.md names only what exists: every backticked type name
/// (UpperCamelCase) is declared in Sources/ or is a target, and every
/// backticked source path (`HLSPack/Asset`, `HLSPackCore/Segmenting/MediaSegment.swift`)
/// is a folder or file under Sources/ (or, as `Tests/Support`, of the project).
@Suite("Architecture document")
struct ArchitectureDocTests {
  static let sources = DocPages.projectRoot.appendingPathComponent("Sources")

  /// Every type, protocol and alias declared in Sources/, and every target Package.swift names.
  static func declaredNames() throws -> Set<String> {
    let manifest = try String(contentsOf: DocPages.projectRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    var names = Set(
      manifest.matches(of: try Regex(#"name: "([A-Za-z][A-Za-z0-9]*)""#)).compactMap { $0.output[1].substring.map(String.init) })
    let declaration = try Regex(#"(?:struct|class|enum|actor|protocol|typealias)\s+([A-Z][A-Za-z0-9_]*)"#)
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
    for file in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for match in text.matches(of: declaration) {
        if let name = match.output[1].substring { names.insert(String(name)) }
      }
    }
    return names
  }

  /// The backticked spans of the page that look like a type name or a source path.
  static func namedThings(in text: String) throws -> [String] {
    let span = try Regex(#"`([A-Z][A-Za-z0-9_]*(?:/[A-Za-z0-9_.+-]+)*)`"#)
    return text.matches(of: span).compactMap { $0.output[1].substring.map(String.init) }
  }

  @Test func everyNamedTypeAndPathExists() throws {
    let text = try DocPages.text(of: "docs/architecture.md")
    let declared = try Self.declaredNames()
    let named = try Self.namedThings(in: text)
    #expect(named.count > 20, "found only \(named)")
    for name in Set(named).sorted() {
      if name.contains("/") {
        let exists = [Self.sources, DocPages.projectRoot].contains {
          FileManager.default.fileExists(atPath: $0.appendingPathComponent(name).path)
        }
        #expect(exists, "docs/architecture.md names `\(name)`, which is not under Sources/")
      } else {
        #expect(declared.contains(name), "docs/architecture.md names `\(name)`, which Sources/ does not declare")
      }
    }
  }

  /// The check itself: a name that is not declared is caught.
  @Test func aMissingTypeIsCaught() throws {
    let declared = try Self.declaredNames()
    #expect(declared.contains("SegmentBoundaries"))
    #expect(!declared.contains("AssetEncoder"))
    #expect(
      try Self.namedThings(in: "`AssetEncoder` in `HLSPack/Asset`, `ffmpeg`") == ["AssetEncoder", "HLSPack/Asset"])
  }
}
