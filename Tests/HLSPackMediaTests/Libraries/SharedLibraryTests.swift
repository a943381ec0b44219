import CFFmpeg
import Testing

@testable import HLSPackMedia

/// The libraries `hlspack fixture` opens when it needs them: each table
/// loads on this system (its SONAME is the installed one), and a missing
/// library or function fails with a message that names it.
@Suite("Fixture libraries opened on demand")
struct SharedLibraryTests {
  @Test func everyTableLoads() throws {
    _ = try FilterLibrary.shared()
    _ = try ZBarLibrary.shared()
    _ = try QREncodeLibrary.shared()
  }

  @Test func aMissingLibraryIsNamedWithItsPackage() {
    let error = #expect(throws: SharedLibraryError.self) {
      try SharedLibrary(opening: "libhlspack-absent.so.7", neededBy: "hlspack fixture make", package: "libhlspack-absent7")
    }
    let message = error?.description ?? ""
    #expect(message.hasPrefix("hlspack fixture make needs libhlspack-absent.so.7, which could not be loaded ("))
    #expect(message.hasSuffix("install Debian's libhlspack-absent7 (scripts/bootstrap --runtime)"))
  }

  @Test func aMissingFunctionIsNamed() throws {
    let library = try SharedLibrary(
      opening: "libavfilter.so.\(LIBAVFILTER_VERSION_MAJOR)", neededBy: "hlspack fixture make", package: "libavfilter")
    let error = #expect(throws: SharedLibraryError.self) {
      let _: hlspack_avfilter_graph_alloc_fn = try library.function("avfilter_graph_alloc_absent")
    }
    #expect(
      error?.description.hasPrefix(
        "hlspack fixture make needs avfilter_graph_alloc_absent from libavfilter.so.\(LIBAVFILTER_VERSION_MAJOR), ")
        == true)
  }
}
