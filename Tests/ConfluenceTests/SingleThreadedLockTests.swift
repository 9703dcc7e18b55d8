import Foundation
import XCTest

/// `Lock` skips its mutex while the C library says the process has only ever had one thread
/// (glibc's `__libc_single_threaded`), as glibc's own mutexes do. An XCTest process already
/// has several threads when a test starts, so these run `ConfluenceLockProbe`, built beside
/// this test binary, which starts with one.
final class SingleThreadedLockTests: XCTestCase {
  /// Subjects subscribed and sent to while the probe has one thread (every critical section
  /// skips the mutex) then get values from two threads at once: all arrive, and nothing
  /// hangs, so the sections that skipped the mutex left it as they found it.
  func test_subjectsUsedWithOneThread_loseNothing_whenTwoThreadsSendLater() throws {
    let child = try runProbe("lose-nothing")
    let output = child.output
    let reports = output.split(separator: "\n").filter { $0.hasPrefix("PASSED: ") || $0.hasPrefix("FAILED: ") }
    XCTAssertEqual(reports.count, 8, "the probe's report:\n\(output)")
    for report in reports where report.hasPrefix("FAILED: ") {
      XCTFail(String(report))
    }
    XCTAssertTrue(output.contains("PASSED: the process starts with one thread"), output)
    XCTAssertEqual(child.reason, .exit, output)
    XCTAssertEqual(child.status, 0, output)
  }

  /// A critical section's body must not start a thread: the section runs without the mutex
  /// while the process has one thread, and the new thread could enter it. Debug builds trap.
  func test_aThreadStartedInsideACriticalSection_traps() throws {
    #if CONFLUENCE_THREAD_SANITIZER
      throw XCTSkip("the thread sanitizer's build locks a pthread mutex every time")
    #else
      if ProcessInfo.processInfo.environment["CONFLUENCE_SKIP_TRAP_CHILDREN"] == "1" {
        throw XCTSkip("a trapping child process does not end under the address sanitizer")
      }
      let child = try runProbe("thread-inside-section")
      #if DEBUG
        XCTAssertEqual(child.reason, .uncaughtSignal, child.output)
        XCTAssertTrue(child.output.contains("a thread was started inside a critical section"), child.output)
      #else
        XCTAssertEqual(child.reason, .exit, child.output)
        XCTAssertTrue(child.output.contains("no trap"), child.output)
      #endif
    #endif
  }

  /// Runs the probe with `argument` (at most a minute).
  private func runProbe(_ argument: String) throws -> ChildProcessResult {
    let probe = Bundle.main.bundleURL.appendingPathComponent("ConfluenceLockProbe")
    guard FileManager.default.isExecutableFile(atPath: probe.path) else {
      throw MissingProbe(path: probe.path)
    }
    // The probe's own heap is not what the suite's leak check is about.
    let child = try runChildProcess(
      probe, arguments: [argument], environment: ["ASAN_OPTIONS": "detect_leaks=0"], timeout: 60)
    XCTAssertFalse(child.timedOut, "the probe did not end within a minute (a lock left held?):\n\(child.output)")
    return child
  }
}

/// The probe is not where the build puts executables (beside this test binary).
private struct MissingProbe: Error, CustomStringConvertible {
  let path: String
  var description: String { "no probe at \(path): the products directory has changed its layout" }
}
