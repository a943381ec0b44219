// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "hlspack",
  products: [
    .executable(name: "hlspack", targets: ["hlspack"])
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
  ],
  targets: [
    // C libraries from Debian's packages (see scripts/bootstrap). Each module map
    // links every library the code calls: pkg-config alone gives only -lavformat.
    // libavfilter, libqrencode and libzbar serve `hlspack fixture` only: their
    // headers are used but they are not linked, so that no other command maps
    // them (nor the libraries they bring); `fixture` opens them with dlopen
    // (HLSPackMedia/Libraries). Their targets therefore have no pkgConfig,
    // whose flags would link them.
    .systemLibrary(
      name: "CFFmpeg", pkgConfig: "libavformat",
      providers: [
        .apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev", "libavfilter-dev"])
      ]),
    .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    // gzip of playlists by `hlspack serve --gzip`.
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // `hlspack fixture`: the QR code burned into each frame, and the reader of a recording.
    .systemLibrary(name: "CQREncode"),
    .systemLibrary(name: "CZBar"),

    // The one reader of M3U8 text: lines, tags and attribute lists (RFC 8216bis §4.1–4.2),
    // for every reader of playlists (Core, verify, serve, the tests). Depends on nothing.
    .target(name: "HLSPackM3U8"),
    // Pure Swift: profile, segmenting, playlists, reporting, publishing. Sees no C type.
    .target(name: "HLSPackCore", dependencies: ["HLSPackM3U8"]),
    // The only importer of FFmpeg: demux, decode, scale, resample, encode, mux.
    // Also the fixture's labels: QR codes (libqrencode) drawn into frames, read back with libzbar.
    .target(name: "HLSPackMedia", dependencies: ["HLSPackCore", "CFFmpeg", "CQREncode", "CZBar"]),
    // The only importer of OpenSSL, primitives only: AES-128-CBC, the SAMPLE-AES
    // and cbcs block patterns, CSPRNG, SHA-256, HMAC, and the P-256 keys and
    // X.509 certificates of `serve --tls auto`. Bitstreams are read in Core.
    .target(name: "HLSPackCrypto", dependencies: ["COpenSSL"]),
    // A package on disk as verify, rewrite-keys, `encode --verify` and serve see it:
    // its files and their boundary, keys.json, and the key behind a key file.
    .target(name: "HLSPackPackage", dependencies: ["HLSPackCore"]),
    // `hlspack verify`: the rules, the inspectors of segments, and reading a package
    // from a folder or over HTTP.
    .target(
      name: "HLSPackVerify",
      dependencies: [
        "HLSPackCore", "HLSPackM3U8", "HLSPackMedia", "HLSPackCrypto", "HLSPackPackage",
        // `verify http(s)://…`: NIO waits for bytes without spinning, and takes a CA bundle (--cacert).
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ]),
    // Wires the stages into the `encode` job.
    .target(
      name: "HLSPack",
      dependencies: [
        "HLSPackCore", "HLSPackMedia", "HLSPackCrypto", "HLSPackPackage", "HLSPackVerify",
        .product(name: "Logging", package: "swift-log"),
      ]),
    // `hlspack serve`: a fixture server for players, with scenario rules and a
    // request log; the folder's boundary is the package layer's. Only this target,
    // HLSPackVerify (verify's HTTP client) and the executable link the HTTP stack.
    .target(
      name: "HLSPackServe",
      dependencies: [
        "CZlib", "HLSPackCore", "HLSPackM3U8", "HLSPackCrypto", "HLSPackPackage",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "_NIOFileSystem", package: "swift-nio"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .executableTarget(
      name: "hlspack",
      dependencies: [
        "HLSPack", "HLSPackCore", "HLSPackServe", "HLSPackVerify",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ],
      // The dynamic loader reads all of a position-independent executable's
      // relocations at every start; packed (DT_RELR, read by glibc 2.36 and
      // later) they take kilobytes instead of megabytes of resident table.
      // gold, the Swift driver's default linker on Linux, cannot write them;
      // lld, which the toolchain ships, can (docs/design/dependency-weight.md).
      linkerSettings: [
        .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"], .when(platforms: [.linux]))
      ]),

    // What every test target shares: running tools, scratch folders, golden
    // files, byte builders. It depends on no hlspack target.
    .target(name: "HLSPackTestSupport", path: "Tests/Support"),
    // Golden files and vectors are read through #filePath, not as bundle resources.
    .testTarget(
      name: "HLSPackCoreTests",
      dependencies: ["HLSPackCore", "HLSPackM3U8", "HLSPackPackage", "HLSPackVerify", "HLSPackTestSupport"],
      exclude: ["Snapshots"]),
    .testTarget(
      name: "HLSPackCryptoTests", dependencies: ["HLSPackCrypto", "HLSPackTestSupport"], exclude: ["Vectors"]),
    // The muxers on real libavformat contexts, writing to memory: container rules,
    // and whole renditions fed by the project's encoders into a recording sink.
    .testTarget(name: "HLSPackMediaTests", dependencies: ["HLSPackMedia", "HLSPackCore", "CFFmpeg"]),
    // Unit tests of the HLSPack target's stages (Protection: the SAMPLE-AES stream encryptors).
    .testTarget(
      name: "HLSPackTests",
      dependencies: ["HLSPack", "HLSPackCore", "HLSPackCrypto", "HLSPackPackage", "HLSPackVerify", "HLSPackTestSupport"]),
    // Runs the real pipeline and checks it with ffmpeg, ffprobe and openssl;
    // depends on the executable so that `swift test` builds it for the CLI tests.
    .testTarget(
      name: "HLSPackEndToEndTests",
      dependencies: [
        "hlspack", "HLSPack", "HLSPackCore", "HLSPackCrypto", "HLSPackM3U8", "HLSPackMedia", "HLSPackPackage",
        "HLSPackVerify", "HLSPackTestSupport",
        .product(name: "Logging", package: "swift-log"),
      ],
      exclude: ["Golden"]),
    // Starts the real `hlspack serve` and checks it with curl and the ffmpeg CLI
    // (depends on the executable so that `swift test` builds it).
    .testTarget(
      name: "HLSPackServeTests",
      dependencies: [
        "hlspack", "HLSPackServe", "HLSPackTestSupport", .product(name: "HTTPTypes", package: "swift-http-types"),
      ]),
  ]
)
