// swift-tools-version:5.4
// 5.4, the last tools version before SwiftPM renames an executable's entry
// point to <module>_main: libFuzzer brings main, the targets have none.
import PackageDescription

// libFuzzer targets for hlspack's parsers of untrusted bytes; `./run` builds and runs them.
// A package of its own, so that the main build never sees -sanitize=fuzzer; it
// builds the library's own sources (Sources/HLSPackCore links to them, and
// Sources/HLSPackServe to the serve scenario's files) with it.
let targets = [
  "fuzz-profile", "fuzz-playlist", "fuzz-keys-json", "fuzz-pmt", "fuzz-init-segment", "fuzz-fragment",
  "fuzz-h264", "fuzz-hevc", "fuzz-subtitles", "fuzz-manifest", "fuzz-verify-playlist",
]

let package = Package(
  name: "hlspack-fuzz",
  targets: [
    .target(name: "HLSPackCore"),
    .target(name: "FuzzSupport", dependencies: ["HLSPackCore"]),
    // Only the scenario format of `hlspack serve` (the files Sources/HLSPackServe links to): the server needs Hummingbird.
    .target(name: "HLSPackServe"),
    .executableTarget(name: "fuzz-scenario", dependencies: ["HLSPackServe"]),
  ] + targets.map { .executableTarget(name: $0, dependencies: ["FuzzSupport", "HLSPackCore"]) },
  swiftLanguageVersions: [.version("6")]
)
