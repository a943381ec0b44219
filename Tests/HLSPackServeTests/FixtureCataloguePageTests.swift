import Foundation
import HLSPackTestSupport
import Testing

extension ServeEndToEnd {
  /// `hlspack fixture make`'s index.html, served by `hlspack serve DIR`, opens
  /// in headless Chromium as a page (served as text/html, not downloaded),
  /// lists every fixture of fixtures.json and logs no console error. Skipped,
  /// saying why, when chromium or playwright is not installed.
  @Suite("serve: the fixture catalogue page in headless Chromium")
  struct FixtureCataloguePageTests {
    @Test(.enabled(if: Chromium.isAvailable, Chromium.skipMessage))
    func theCatalogueLoadsAndListsEveryFixture() throws {
      let folder = try ScratchFolder.make("fixture-page").appendingPathComponent("fixtures")
      let make = try Command.run(
        try ServerProcess.executable(),
        ["fixture", "make", "--output", folder.path, "--duration", "2", "--only", "clear-ts"])
      try #require(make.status == 0, "fixture make: \(make.stderr)")
      let database = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("fixtures.json")))
          as? [String: Any])
      let ids = (database["fixtures"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
      try #require(ids == ["clear-ts"], "\(database)")

      let server = try ServerProcess(folder: folder)
      let screenshot = folder.deletingLastPathComponent().appendingPathComponent("index.png")
      let page = try Chromium.open(server.base + "/index.html", screenshot: screenshot)

      #expect(page.navigationError == nil, "\(page)")
      #expect(page.status == 200 && page.contentType?.hasPrefix("text/html") == true, "\(page)")
      #expect(page.title == "hlspack fixtures", "\(page)")
      #expect(page.sectionIds == ids, "one section per fixture of fixtures.json, in its order")
      #expect(page.consoleErrors.isEmpty && page.failedRequests.isEmpty, "\(page)")
      #expect(FileManager.default.fileExists(atPath: screenshot.path))
    }
  }
}
