// swift-tools-version:6.3
// 6.3, as the root package (its manifest says why).
import PackageDescription

// News: the Hacker News client of the "News" chapter of "Combine in Action", built on
// Confluence, with `news`, a terminal reader, and an offline demo server.
//
// A separate package so that users of Confluence resolve none of its dependencies; it
// depends on Confluence by path, so both change together.
//
// Where Apple's Combine does not exist, `import Combine` is Confluence's `Combine` product,
// which the root manifest declares on exactly these platforms; on Apple platforms News
// builds on Apple's own Combine (see ARCHITECTURE.md, "Platforms and the manifests").
#if os(Linux) || os(Windows) || os(Android) || os(WASI)
  let combine: [Target.Dependency] = [
    .product(name: "Combine", package: "Confluence", condition: .when(platforms: [.linux, .windows, .android, .wasi]))
  ]
  // `news … --trace FILE`: ConfluenceTracing records pipelines through Confluence's
  // `_Introspection`, so it traces News' pipelines only where `Combine` is Confluence.
  let tracing: [Target.Dependency] = [
    .product(
      name: "ConfluenceTracing", package: "Confluence",
      condition: .when(platforms: [.linux, .windows, .android, .wasi]))
  ]
  // The live feeds' event streams: ConfluenceNetworking's publishers are Confluence's, so
  // they join News' pipelines only where `Combine` is Confluence; elsewhere News polls.
  let networking: [Target.Dependency] = [
    .product(
      name: "ConfluenceNetworking", package: "Confluence",
      condition: .when(platforms: [.linux, .windows, .android, .wasi]))
  ]
#else
  let combine: [Target.Dependency] = []
  let tracing: [Target.Dependency] = []
  let networking: [Target.Dependency] = []
#endif

let package = Package(
  name: "News",
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "HackerNews", targets: ["HackerNews"]),
    .library(name: "NewsServer", targets: ["NewsServer"]),
    .library(name: "NewsStore", targets: ["NewsStore"]),
    .executable(name: "news", targets: ["news"]),
    .executable(name: "news-benchmark", targets: ["NewsBenchmark"]),
  ],
  dependencies: [
    .package(name: "Confluence", path: ".."),
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
  ],
  targets: [
    // The client: `API` (the chapter's names) on a generic `APIClient`.
    .target(
      name: "HackerNews",
      dependencies: combine + networking
    ),
    // The offline demo server: the 2019-11-12 front page and four comments of the Dropbox
    // thread over real HTTP, with latency, faults and a "live" mode.
    .target(
      name: "NewsServer",
      dependencies: [
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ],
      resources: [
        .copy("Resources/snapshot-2019-11-12"), .copy("Resources/api-examples"), .copy("Resources/thread-8863"),
      ]
    ),
    // What the reader keeps between runs: read marks, the stories and comments it loaded,
    // the last listing and the keyword filters, in SQLite through GRDB.
    .target(
      name: "NewsStore",
      dependencies: ["HackerNews", .product(name: "GRDB", package: "GRDB.swift")]
    ),
    // The reader's commands and its terminal rendering, as a library so tests can reach it.
    .target(
      name: "NewsCLI",
      dependencies: [
        "HackerNews", "NewsServer", "NewsStore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ] + tracing
    ),
    .executableTarget(name: "news", dependencies: ["NewsCLI"]),
    .executableTarget(name: "NewsBenchmark", dependencies: ["HackerNews", "NewsServer", "NewsCLI"]),
    .testTarget(name: "HackerNewsTests", dependencies: ["HackerNews", "NewsServer"], resources: [.copy("Fixtures")]),
    .testTarget(name: "NewsCLITests", dependencies: ["NewsCLI", "NewsServer", "news"]),
    .testTarget(
      name: "NewsStoreTests",
      dependencies: ["NewsStore", "HackerNews", .product(name: "GRDB", package: "GRDB.swift")]),
    // The interactive reader on virtual time: scripted keys in, whole frames out.
    .testTarget(
      name: "NewsReaderTests",
      dependencies: [
        "NewsCLI", "HackerNews", "NewsStore", .product(name: "ConfluenceTesting", package: "Confluence"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
