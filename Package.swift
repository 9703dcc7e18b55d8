// swift-tools-version:6.3
// 6.3 is the oldest Swift this package is built and tested with (CI: 6.3 and 6.4). Older ones
// are not claimed: the sources use `weak let` (SE-0481, not in Swift 6.0 or 6.1 and, as far as
// is known, not in 6.2.0); the rest they need is in 6.0 (the Synchronization module's Mutex and
// Atomic, the Swift 6 language mode, `swiftLanguageModes`). See README.md, "Versions".
import PackageDescription

import class Foundation.ProcessInfo

// Confluence and ConfluenceFoundation are compiled optimised in every configuration, as Apple
// ships Combine: a prebuilt, optimised framework that keeps its speed in an app's debug build.
// Unoptimised, each generic function of a subscription looks its generic types up in the
// runtime's cache every time it runs, and a debug build of an app would pay 3–10 times the
// optimised cost per value (ARCHITECTURE.md, "Optimised in every configuration"). Whole-module
// optimisation lets the files of a module inline each other; `-num-threads` keeps one object
// file per source file, which the debug build's index store needs. Swift 6.2 and later accept
// these flags in a package used as a versioned dependency.
//
// `CONFLUENCE_UNOPTIMISED=1` in the environment builds them unoptimised in the debug
// configuration, to step through the library in a debugger; it also defines
// `CONFLUENCE_UNOPTIMISED`, under which the sources keep the paths that are cheaper without
// the optimiser.
// (ConfluenceTests sees the condition too: a few of its tests check which path was taken.)
let buildsUnoptimised = ProcessInfo.processInfo.environment["CONFLUENCE_UNOPTIMISED"] == "1"
let unoptimisedCondition: [SwiftSetting] =
  buildsUnoptimised ? [.define("CONFLUENCE_UNOPTIMISED", .when(configuration: .debug))] : []
let optimisedInEveryConfiguration: [SwiftSetting] =
  buildsUnoptimised
  ? unoptimisedCondition
  : [.unsafeFlags(["-O", "-wmo", "-num-threads", "2", "-disable-batch-mode"], .when(configuration: .debug))]

// `Combine` re-exports Confluence so that code written for Apple's Combine compiles
// unchanged with `import Combine`. It exists only where Apple's Combine does not: on Apple
// platforms a second module named `Combine` would shadow Apple's for everything built
// beside it. A manifest is evaluated on the machine that builds, so this is the build's
// platform. News/Package.swift and Examples/Package.swift name the `Combine` product under
// the same condition (see ARCHITECTURE.md, "Platforms and the manifests").
#if os(Linux) || os(Windows) || os(Android) || os(WASI)
  let providesCombineModule = true
#else
  let providesCombineModule = false
#endif

var products: [Product] = [
  .library(name: "Confluence", targets: ["Confluence"]),
  .library(name: "ConfluenceFoundation", targets: ["ConfluenceFoundation"]),
  .library(name: "ConfluenceTesting", targets: ["ConfluenceTesting"]),
  .library(name: "ConfluenceExtras", targets: ["ConfluenceExtras"]),
  .library(name: "ConfluenceTracing", targets: ["ConfluenceTracing"]),
  .library(name: "ConfluenceNetworking", targets: ["ConfluenceNetworking"]),
]

var targets: [Target] = [
  // The current thread's identity and the kernel's process-wide barrier, for the sink's
  // fence-free deliveries (Sources/Confluence/Internal/DeliveryGate.swift).
  .target(name: "CConfluenceSystem"),
  .target(name: "Confluence", dependencies: ["CConfluenceSystem"], swiftSettings: optimisedInEveryConfiguration),
  .target(
    name: "ConfluenceFoundation", dependencies: ["Confluence"], swiftSettings: optimisedInEveryConfiguration),
  .target(name: "ConfluenceTesting", dependencies: ["Confluence", "ConfluenceFoundation"]),
  .target(name: "ConfluenceExtras", dependencies: ["Confluence"]),
  // Pipeline traces: Chrome/Perfetto trace-event JSON and terminal timelines.
  .target(name: "ConfluenceTracing", dependencies: ["Confluence"]),
  // Streams over HTTP (bytes, lines, server-sent events) as back-pressured publishers:
  // names Apple does not have, so not in ConfluenceFoundation (ARCHITECTURE.md, "Modules").
  .target(name: "ConfluenceNetworking", dependencies: ["Confluence", "ConfluenceFoundation"]),
  // A process that starts with one thread, which `Lock` treats differently (no mutex while
  // the C library says so); run by ConfluenceTests' SingleThreadedLockTests.
  .executableTarget(name: "ConfluenceLockProbe", dependencies: ["Confluence", "CConfluenceSystem"]),
  .testTarget(
    name: "ConfluenceTests",
    dependencies: [
      "Confluence", "ConfluenceTesting", "ConfluenceFoundation", "ConfluenceExtras", "ConfluenceLockProbe",
    ],
    swiftSettings: unoptimisedCondition
  ),
  .testTarget(name: "ConfluenceFoundationTests", dependencies: ["ConfluenceFoundation", "ConfluenceTesting"]),
  .testTarget(
    name: "ConfluenceExtrasTests",
    dependencies: ["ConfluenceExtras", "ConfluenceTesting"]
  ),
  // Generated pipelines checked against the contract, a sequence model and leaks.
  .testTarget(
    name: "ConfluencePropertyTests",
    dependencies: ["Confluence", "ConfluenceFoundation", "ConfluenceExtras", "ConfluenceTesting"]
  ),
  // The test kit used from Swift Testing (the rest of the suite is XCTest), and
  // PublisherVerification over the publishers and operators.
  .testTarget(name: "ConfluenceTracingTests", dependencies: ["ConfluenceTracing", "ConfluenceTesting"]),
  // The streaming publishers against LocalHTTPServer on 127.0.0.1, and their parsers byte by byte.
  .testTarget(name: "ConfluenceNetworkingTests", dependencies: ["ConfluenceNetworking", "ConfluenceTesting"]),
  // Every interleaving of each lock-free protocol's steps, for two and three threads: small
  // models that run the library's own state machines (`@testable`), checked exhaustively.
  .testTarget(name: "ConfluenceInterleavingTests", dependencies: ["Confluence"]),
  .testTarget(
    name: "ConfluenceTestingSwiftTests",
    dependencies: ["Confluence", "ConfluenceFoundation", "ConfluenceExtras", "ConfluenceTesting"]
  ),
  // Tests whose pipelines must be built by code the compiler specialised, as an app's release
  // build is: compiled optimised in every configuration (a relay that is a class is then held
  // by a subject as itself, not boxed, and handed over moved; see SubjectRelayHandoverTests).
  .testTarget(
    name: "ConfluenceOptimisedTests", dependencies: ["Confluence", "ConfluenceTesting"],
    swiftSettings: optimisedInEveryConfiguration),
  // The race suite: small scenarios run on several threads at once, many times each, that
  // check the outcomes the thread-safety promises rule out (public API only).
  .testTarget(name: "ConfluenceRaceTests", dependencies: ["Confluence", "ConfluenceFoundation", "ConfluenceExtras"]),
]

if providesCombineModule {
  products.append(.library(name: "Combine", targets: ["Combine"]))
  targets.append(.target(name: "Combine", dependencies: ["Confluence", "ConfluenceFoundation"]))
  // Code as a Swift 6 app writes it (promises on other queues, subjects sent to from tasks,
  // cancellables in actors), in the Swift 6 language mode whatever the package default.
  targets.append(
    .testTarget(
      name: "Swift6UsageTests",
      dependencies: ["Combine"],
      swiftSettings: [.swiftLanguageMode(.v6)]
    )
  )
  targets.append(
    .testTarget(
      name: "CombineCompatibilityTests",
      dependencies: ["Combine", "ConfluenceTesting"],
      resources: [.copy("Fixtures")]
    )
  )
}

let package = Package(
  name: "Confluence",
  // What `Synchronization.Mutex` and `Atomic` need on Apple platforms; elsewhere, Swift 6.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: products,
  targets: targets,
  swiftLanguageModes: [.v6]
)
