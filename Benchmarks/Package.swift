// swift-tools-version:6.2
// Benchmarks: Confluence side by side with OpenCombine, AsyncSequence / swift-async-algorithms
// and a hand-written loop, in one process run. A separate package: not part of the product
// graph. Run: `swift run -c release --package-path Benchmarks confluence-bench` (see README.md).
import Foundation
import PackageDescription

// Confluence grows operator by operator. A workload that needs a type Confluence does not have
// yet is compiled only once the type exists on the checked-out source: the manifest looks for
// its declaration under ../Sources/Confluence and defines a condition for the workload module.
let confluenceSources = Context.packageDirectory + "/../Sources/Confluence"

func confluenceDeclares(_ pattern: String) -> Bool {
  guard let files = FileManager.default.enumerator(atPath: confluenceSources) else { return false }
  for case let file as String in files where file.hasSuffix(".swift") {
    if let text = try? String(contentsOfFile: confluenceSources + "/" + file, encoding: .utf8),
      text.range(of: pattern, options: .regularExpression) != nil
    {
      return true
    }
  }
  return false
}

var confluenceFeatures: [SwiftSetting] = []
if confluenceDeclares(#"class\s+PassthroughSubject\b"#) {
  confluenceFeatures.append(.define("HAS_PASSTHROUGH_SUBJECT"))
}
if confluenceDeclares(#"struct\s+FlatMap\b"#) {
  confluenceFeatures.append(.define("HAS_FLATMAP"))
}
if confluenceDeclares(#"struct\s+Merge\b"#) {
  confluenceFeatures.append(.define("HAS_MERGE"))
}
if confluenceDeclares(#"struct\s+Zip\b"#) {
  confluenceFeatures.append(.define("HAS_ZIP"))
}
if confluenceDeclares(#"struct\s+CombineLatest\b"#) {
  confluenceFeatures.append(.define("HAS_COMBINE_LATEST"))
}
if confluenceDeclares(#"struct\s+ReceiveOn\b"#)
  && FileManager.default.fileExists(atPath: confluenceSources + "/../ConfluenceFoundation/Schedulers/DispatchQueue")
{
  confluenceFeatures.append(.define("HAS_RECEIVE_ON"))
}
if confluenceDeclares(#"class\s+Share\b"#) {
  confluenceFeatures.append(.define("HAS_SHARE"))
}

// LLVM's function merging turns one of two identical closures into a thunk that calls the
// other: two rows that pass the same closure (`{ Work.transform($0) }`) would each measure an
// extra call the other does not, depending on which rows exist. The workload modules build
// without it, so that a row measures the library and its own closures only.
let noFunctionMerging: SwiftSetting = .unsafeFlags(["-Xfrontend", "-disable-llvm-merge-functions-pass"])

let package = Package(
  name: "ConfluenceBenchmarks",
  dependencies: [
    .package(name: "Confluence", path: ".."),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
  ],
  targets: [
    // Counts malloc/calloc/realloc/free (and the aligned variants) while switched on.
    .target(name: "CMallocCounter"),
    // Shared by every workload module: the per-element work, black holes, the registry types.
    .target(name: "BenchSupport"),
    // One module per library: Confluence and OpenCombine declare the same names.
    .target(
      name: "ConfluenceWorkloads",
      dependencies: [
        "BenchSupport", .product(name: "Confluence", package: "Confluence"),
        .product(name: "ConfluenceFoundation", package: "Confluence"),
        .product(name: "ConfluenceNetworking", package: "Confluence"),
      ],
      swiftSettings: confluenceFeatures + [noFunctionMerging]
    ),
    .target(
      name: "OpenCombineWorkloads",
      dependencies: [
        "BenchSupport", .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "OpenCombineDispatch", package: "OpenCombine"),
      ],
      // OpenCombine 0.14 has no Merge and no CombineLatest: those rows show "–" for it.
      swiftSettings: [
        .define("HAS_PASSTHROUGH_SUBJECT"), .define("HAS_FLATMAP"), .define("HAS_ZIP"), .define("HAS_SHARE"),
        .define("HAS_RECEIVE_ON"), noFunctionMerging,
      ]
    ),
    .target(
      name: "AsyncWorkloads",
      dependencies: ["BenchSupport", .product(name: "AsyncAlgorithms", package: "swift-async-algorithms")],
      swiftSettings: [noFunctionMerging]
    ),
    // The load test: threads sending into shared subjects while subscribers come and go.
    .executableTarget(
      name: "confluence-soak",
      dependencies: [.product(name: "Confluence", package: "Confluence")]
    ),
    // One body once, for instruction counts under callgrind (Benchmarks/instructions): the
    // same workloads, without the malloc interposer, which valgrind's own malloc cannot share.
    .executableTarget(
      name: "confluence-instructions",
      dependencies: ["BenchSupport", "ConfluenceWorkloads", "OpenCombineWorkloads"]
    ),
    .executableTarget(
      name: "confluence-bench",
      dependencies: [
        "CMallocCounter", "BenchSupport", "ConfluenceWorkloads", "OpenCombineWorkloads", "AsyncWorkloads",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
