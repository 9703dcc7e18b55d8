import Foundation
import Synchronization
import XCTest

/// How many `assertTraps` calls each running test has made so far (by test name).
private let trapCallCounts = Mutex<[String: Int]>([:])

extension XCTestCase {
  /// Asserts that `body` traps (a `precondition`, a `fatalError`, `SIGTRAP`).
  ///
  /// The check runs in a child process: this test binary again, filtered to the running
  /// test, told through the environment which `assertTraps` call of the test to run. In
  /// the child, that call runs `body` and, if `body` returns, exits normally; every other
  /// call returns at once. The parent asserts that the child died of a signal and, when
  /// `message` is given, that its output contains it. Several calls in one test each get
  /// their own child.
  ///
  /// With `CONFLUENCE_SKIP_TRAP_CHILDREN=1` in the environment (the leak-checking run under
  /// the address sanitizer, where a trapping child process does not end) the check is not
  /// made; the plain `swift test` run makes every one of them.
  func assertTraps(
    _ message: String? = nil, file: StaticString = #filePath, line: UInt = #line, _ body: () -> Void
  ) {
    let testName = runningTestName
    let index = trapCallCounts.withLock { counts -> Int in
      counts[testName, default: 0] += 1
      return counts[testName]!
    }
    let environment = ProcessInfo.processInfo.environment
    if environment["CONFLUENCE_SKIP_TRAP_CHILDREN"] == "1" { return }
    if let childTest = environment["CONFLUENCE_TRAP_TEST"] {
      guard childTest == testName, environment["CONFLUENCE_TRAP_INDEX"] == String(index) else { return }
      body()
      print("CONFLUENCE_TRAP_DID_NOT_TRAP")
      exit(0)
    }
    #if os(Linux)
      do {
        let child = try runChildProcess(
          URL(fileURLWithPath: CommandLine.arguments[0]), arguments: ["ConfluenceTests.\(testName)"],
          environment: ["CONFLUENCE_TRAP_TEST": testName, "CONFLUENCE_TRAP_INDEX": String(index)])
        XCTAssertEqual(
          child.reason, .uncaughtSignal, "did not trap (call #\(index)):\n\(child.output)", file: file, line: line)
        if let message {
          XCTAssertTrue(
            child.output.contains(message), "the trap message lacks \"\(message)\":\n\(child.output)", file: file,
            line: line)
        }
      } catch {
        XCTFail("could not start the child process: \(error)", file: file, line: line)
      }
    #endif
  }

  /// `Class/test`, as `swift test --filter` and the test binary take it.
  private var runningTestName: String {
    // `name` is "Class.test" with swift-corelibs-xctest, "-[Class test]" with Apple's.
    let trimmed = name.trimmingCharacters(in: CharacterSet(charactersIn: "-[]"))
    let parts = trimmed.split(whereSeparator: { $0 == "." || $0 == " " })
    return "\(parts.first ?? "")/\(parts.last ?? "")"
  }
}
