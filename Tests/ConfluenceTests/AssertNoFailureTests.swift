import Confluence
import ConfluenceTesting
import Foundation
import XCTest

final class AssertNoFailureTests: XCTestCase {
  func test_passesValuesAndFinish() {
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2].publisher.setFailureTypeForTest(TestError.self).assertNoFailure().subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2])
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_passesDemandAndSubscriptionThrough_max1() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
    upstream.assertNoFailure("What could possibly go wrong?").subscribe(subscriber)
    XCTAssertEqual(subscriber.subscriptionDescription, "Scripted")
    XCTAssertEqual(upstream.send(1), .max(2))
    subscriber.request(.max(3))
    XCTAssertEqual(upstream.requests, [.max(1), .max(3)])
  }

  func test_noDemand_andCancel() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.assertNoFailure().subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [])
    subscriber.cancel()
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_properties() {
    let publisher = Just(1).setFailureTypeForTest().assertNoFailure("prefix", file: "f.swift", line: 7)
    XCTAssertEqual(publisher.prefix, "prefix")
    XCTAssertEqual("\(publisher.file)", "f.swift")
    XCTAssertEqual(publisher.line, 7)
  }

  /// Runs the trap in a child process (this test binary, filtered to this test) and checks
  /// that it died with the message.
  func test_failure_trapsWithPrefixAndError() throws {
    if ProcessInfo.processInfo.environment["CONFLUENCE_SKIP_TRAP_CHILDREN"] == "1" {
      throw XCTSkip("a trapping child process does not end under the address sanitizer")
    }
    if ProcessInfo.processInfo.environment["CONFLUENCE_ASSERT_NO_FAILURE_CHILD"] != nil {
      let upstream = ScriptedPublisher<Int, TestError>()
      let cancellable = upstream.assertNoFailure("What could possibly go wrong?").sink { _ in }
      upstream.send(completion: .failure(TestError("genericSubjectError")))
      withExtendedLifetime(cancellable) {}
      XCTFail("assertNoFailure did not trap")
      return
    }
    #if os(Linux)
      let child = try runChildProcess(
        URL(fileURLWithPath: CommandLine.arguments[0]),
        arguments: ["ConfluenceTests.AssertNoFailureTests/test_failure_trapsWithPrefixAndError"],
        environment: ["CONFLUENCE_ASSERT_NO_FAILURE_CHILD": "1"])
      XCTAssertNotEqual(child.status, 0)
      XCTAssertTrue(child.output.contains("What could possibly go wrong? genericSubjectError"), child.output)
    #else
      throw XCTSkip("the child-process trap check runs on Linux only")
    #endif
  }
}

extension Just {
  /// `setFailureType(to:)` belongs to another branch; the tests need only this.
  fileprivate func setFailureTypeForTest() -> Publishers.Sequence<[Output], TestError> {
    Publishers.Sequence(sequence: [output])
  }
}
