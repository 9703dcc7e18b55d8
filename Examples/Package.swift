// swift-tools-version:6.3
// 6.3, as the root package (its manifest says why).
import PackageDescription

// Examples: runnable programs for the chapters of "Combine in Action" and the patterns of
// "Using Combine", written as the books write them (`import Combine`).
//
// A separate package, like News, so that users of Confluence build none of it; it depends
// on Confluence by path, so both change together. `swift run --package-path Examples <name>`
// runs one; `swift test --package-path Examples` runs each and compares what it prints with
// `Expected/<name>.txt`.

// Where Apple's Combine does not exist, `import Combine` is Confluence's `Combine` product
// (the root manifest declares that product on exactly these platforms). On Apple platforms
// the examples build on Apple's own Combine and need nothing from Confluence: the same
// source compiles against either, which is the point of the project.
#if os(Linux) || os(Windows) || os(Android) || os(WASI)
  let combine: [Target.Dependency] = [
    .product(name: "Combine", package: "Confluence", condition: .when(platforms: [.linux, .windows, .android, .wasi]))
  ]
#else
  let combine: [Target.Dependency] = []
#endif

/// The examples, by executable name, with the source folder of each.
let examples: [(name: String, folder: String)] = [
  // "Combine in Action", one per chapter.
  ("networking", "Networking"),
  ("debugging", "Debugging"),
  ("timers", "Timers"),
  ("observation", "KeyValueObserving"),
  ("resource-sharing", "ResourceSharing"),
  // "Using Combine", one per pattern that means something without a UI.
  ("type-ahead-search", "TypeAheadSearch"),
  ("form-validation", "FormValidation"),
  ("wrapping-callbacks", "WrappingCallbacks"),
  ("activity-indicator", "ActivityIndicator"),
  ("deferred-future-retry", "DeferredFutureRetry"),
  ("assign-to-published", "AssignToPublished"),
]

let package = Package(
  name: "Examples",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
  products: examples.map { .executable(name: $0.name, targets: [$0.folder]) },
  dependencies: [
    .package(name: "Confluence", path: "..")
  ],
  targets: [
    // What several examples share: a tiny HTTP server on 127.0.0.1 (so the networking
    // chapters run offline) and a scheduler that runs on virtual time.
    .target(name: "ExampleSupport", dependencies: combine)
  ]
    + examples.map {
      .executableTarget(name: $0.folder, dependencies: combine + ["ExampleSupport"], path: "Sources/\($0.folder)")
    }
    + [
      // Runs every example and compares its whole output with Expected/<name>.txt.
      .testTarget(name: "ExamplesTests", dependencies: examples.map { .target(name: $0.folder) })
    ],
  swiftLanguageModes: [.v6]
)
