import Foundation
import XCTest

/// Book code that cannot work on Linux fails to compile with an error naming what to use
/// instead. The check compiles a small file with `swiftc -typecheck` against the modules
/// this build produced and reads the diagnostics a user would see.
final class PortingHintTests: XCTestCase {
  /// The directory holding the test binary: the build's products, with `Modules/` in it.
  private var productsDirectory: URL {
    Bundle.main.bundleURL
  }

  /// Type-checks `source` (with `import Combine` and `import Foundation`) and returns what
  /// the compiler printed, and whether it succeeded.
  private func typecheck(_ source: String) throws -> (succeeded: Bool, diagnostics: String) {
    let modules = productsDirectory.appendingPathComponent("Modules")
    let combine = modules.appendingPathComponent("Combine.swiftmodule")
    guard FileManager.default.fileExists(atPath: combine.path) else {
      XCTFail("no Combine module at \(combine.path): the products directory has changed its layout")
      return (false, "")
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("porting-hint-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("main.swift")
    try ("import Combine\nimport Foundation\n\n" + source).write(to: file, atomically: true, encoding: .utf8)

    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // The C modules Confluence imports (CConfluenceSystem) are found through the module
    // maps SwiftPM writes beside their objects, as SwiftPM itself passes them.
    let moduleMaps = try FileManager.default.contentsOfDirectory(atPath: productsDirectory.path)
      .filter { $0.hasSuffix(".build") }
      .map { productsDirectory.appendingPathComponent($0).appendingPathComponent("module.modulemap") }
      .filter { FileManager.default.fileExists(atPath: $0.path) }
    process.arguments =
      [
        "swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path,
        "-module-cache-path", directory.appendingPathComponent("cache").path, file.path,
      ] + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0.path)"] }
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = errors
    try process.run()
    let output = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus == 0, String(decoding: output, as: UTF8.self))
  }

  /// The unavailable declarations must not get in the way of code that does not use them.
  func test_codeWithoutKeyValueObserving_compiles() throws {
    let result = try typecheck(
      """
      import Observation

      @Observable final class TestObject { var integerProperty = 0 }
      let object = TestObject()
      let subscription = object.observationPublisher(for: \\.integerProperty, options: [.prior])
        .sink { print($0) }
      """)
    XCTAssertTrue(result.succeeded, result.diagnostics)
  }

  /// "Combine in Action", chapter 12: `queue.publisher(for: \.operationCount)`.
  func test_publisherForKeyPath_failsNamingObservationPublisher() throws {
    let result = try typecheck(
      """
      let queue = OperationQueue()
      let subscription = queue.publisher(for: \\.operationCount)
        .sink { print("Outstanding operations in queue: \\($0)") }
      """)
    XCTAssertFalse(result.succeeded)
    XCTAssertTrue(
      result.diagnostics.contains(
        "error: 'publisher(for:options:)' is unavailable: key-value observing needs the Objective-C runtime, "
          + "which Linux lacks: make the class @Observable (no NSObject, no @objc dynamic) and use "
          + "observationPublisher(for:options:)"),
      result.diagnostics)
    XCTAssertFalse(result.diagnostics.contains("has no member"), result.diagnostics)
  }

  /// The same with options, on a subclass of NSObject, as the chapter's `TestObject`.
  func test_publisherForKeyPathWithOptions_failsNamingObservationPublisher() throws {
    let result = try typecheck(
      """
      class TestObject: NSObject {
        var integerProperty: Int = 0
      }
      let obj = TestObject()
      let subscription = obj.publisher(for: \\.integerProperty, options: [.prior])
        .sink { print("integerProperty changes to \\($0)") }
      """)
    XCTAssertFalse(result.succeeded)
    XCTAssertTrue(
      result.diagnostics.contains("is unavailable: key-value observing needs the Objective-C runtime"),
      result.diagnostics)
    XCTAssertTrue(result.diagnostics.contains("use observationPublisher(for:options:)"), result.diagnostics)
    XCTAssertFalse(result.diagnostics.contains("has no member"), result.diagnostics)
  }

  /// Naming the publisher's type.
  func test_keyValueObservingPublisherType_failsNamingObservationPublisher() throws {
    let result = try typecheck(
      """
      func observe(_ publisher: NSObject.KeyValueObservingPublisher<OperationQueue, Int>) {}
      """)
    XCTAssertFalse(result.succeeded)
    XCTAssertTrue(
      result.diagnostics.contains(
        "error: 'KeyValueObservingPublisher' is unavailable: key-value observing needs the Objective-C runtime, "
          + "which Linux lacks: use ObservationPublisher"),
      result.diagnostics)
  }
}
