import Foundation
import XCTest

/// Runs every example and compares its whole output with `Expected/<name>.txt`, so the
/// examples cannot stop compiling, stop running or change what they print unnoticed.
///
/// `swift build --package-path Examples` builds the examples first (`swift test` does too).
/// After an intended change of output, rewrite an expected file with
/// `swift run --package-path Examples <name> > Examples/Expected/<name>.txt`.
final class ExampleOutputTests: XCTestCase {
  /// The directory the example binaries are built into: the one holding the test bundle.
  private var productsDirectory: URL {
    #if os(macOS)
      for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        return bundle.bundleURL.deletingLastPathComponent()
      }
      fatalError("no .xctest bundle found")
    #else
      return Bundle.main.bundleURL
    #endif
  }

  private var expectedDirectory: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Expected")
  }

  private func assertOutput(of name: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let binary = productsDirectory.appendingPathComponent(name)
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      XCTFail("\(name) is not built at \(binary.path): run swift build --package-path Examples", file: file, line: line)
      return
    }
    let expected = try String(
      contentsOf: expectedDirectory.appendingPathComponent("\(name).txt"), encoding: .utf8)

    let process = Process()
    process.executableURL = binary
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    // An example that hangs fails its test instead of stopping the suite.
    DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
      if process.isRunning { process.terminate() }
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()

    XCTAssertEqual(process.terminationStatus, 0, "\(name) exit status", file: file, line: line)
    let actual = String(decoding: data, as: UTF8.self)
    if actual != expected {
      let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
      let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
      let firstDifference = zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }
      let location =
        firstDifference.map { "line \($0.offset + 1): got \"\($0.element.0)\", expected \"\($0.element.1)\"" }
        ?? "lengths differ: \(actualLines.count) lines, expected \(expectedLines.count)"
      XCTFail(
        "\(name) printed something else than Expected/\(name).txt; first difference at \(location)\n\(actual)",
        file: file, line: line)
    }
  }

  func test_networking_printsTheChaptersOutput() throws { try assertOutput(of: "networking") }
  func test_debugging_printsTheChaptersOutput() throws { try assertOutput(of: "debugging") }
  func test_timers_printsTheChaptersOutput() throws { try assertOutput(of: "timers") }
  func test_observation_printsTheChaptersOutput() throws { try assertOutput(of: "observation") }
  func test_resourceSharing_printsTheChaptersOutput() throws { try assertOutput(of: "resource-sharing") }
  func test_typeAheadSearch_printsItsTimeline() throws { try assertOutput(of: "type-ahead-search") }
  func test_formValidation_printsTheFormsStates() throws { try assertOutput(of: "form-validation") }
  func test_wrappingCallbacks_printsEachLineThenCompletion() throws { try assertOutput(of: "wrapping-callbacks") }
  func test_activityIndicator_printsTheIndicatorsStates() throws { try assertOutput(of: "activity-indicator") }
  func test_deferredFutureRetry_printsEachAttempt() throws { try assertOutput(of: "deferred-future-retry") }
  func test_assignToPublished_printsTheAssignedValues() throws { try assertOutput(of: "assign-to-published") }
}
