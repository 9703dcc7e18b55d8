import Confluence
import ConfluenceTesting
import XCTest

/// The kit's checks fail an XCTest test case, at the line that made the check. XCTest on
/// Linux has no `XCTExpectFailure`: this case overrides `recordFailure`, the funnel every
/// XCTest failure goes through, to capture the failures the deliberate breaches below
/// produce — and records any failure it did not expect as usual.
/// (The Swift Testing side is proven in ConfluenceTestingSwiftTests' IssueReportingTests.)
final class TestKitReportingTests: XCTestCase {
  private struct Captured: Equatable {
    let description: String
    let file: String
    let line: Int
  }

  private var capturing = false
  private var captured: [Captured] = []

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
  ) {
    if capturing {
      captured.append(Captured(description: description, file: filePath, line: lineNumber))
    } else {
      super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
  }

  /// Runs `body` with failures captured rather than recorded, and returns them.
  private func capturingFailures(_ body: () -> Void) -> [Captured] {
    capturing = true
    captured = []
    body()
    capturing = false
    return captured
  }

  func test_testSubscriber_valueBeyondDemand_failsTheTestAtItsLine() {
    var line = 0
    let failures = capturingFailures {
      line = #line; let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
      SendsTwoWhatever().subscribe(subscriber)
    }
    XCTAssertEqual(
      failures,
      [
        Captured(
          description: "failed - Contract violation: received value 1 beyond the demand granted ([max(1)])",
          file: #filePath, line: line)
      ])
  }

  func test_publisherVerification_brokenRule_failsTheTestAtTheVerifyLine() {
    let verification = PublisherVerification("SendsTwoWhatever", valueCounts: 2...2) { _ in SendsTwoWhatever() }
    var line = 0
    let failures = capturingFailures {
      line = #line; verification.verify(.neverMoreThanDemanded)
    }
    XCTAssertEqual(failures.map(\.line), [line])
    XCTAssertEqual(failures.map(\.file), [#filePath])
    XCTAssertTrue(
      failures.first?.description.contains(
        "SendsTwoWhatever breaks Rule 2: never more values than the demand requested — with .max(1) then .max(2) requested: value 2 arrived beyond the demand requested"
      ) == true, "\(failures)")
  }

  func test_assertReleased_objectStillAlive_failsTheTestAtItsLine() {
    let keeper = NSMutableArray()
    var line = 0
    let failures = capturingFailures {
      var object: NSObject? = NSObject()
      keeper.add(object!)
      line = #line; assertReleased(&object, "kept")
    }
    XCTAssertEqual(failures.map(\.line), [line])
    XCTAssertEqual(failures.first?.description.hasSuffix("expected the object to be freed. kept"), true, "\(failures)")
  }

  func test_aPublisherKeepingTheContract_failsNothing() {
    let failures = capturingFailures {
      let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
      [1, 2, 3].publisher.subscribe(subscriber)
      PublisherVerification("Publishers.Sequence", requestNone: .ignored) { (0..<$0).publisher }.verify()
    }
    XCTAssertEqual(failures, [])
  }
}

/// Sends 0 and 1 whatever the demand: the breach the kit must catch.
private struct SendsTwoWhatever: Publisher {
  typealias Output = Int
  typealias Failure = Never

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    subscriber.receive(subscription: Subscriptions.empty)
    _ = subscriber.receive(0)
    _ = subscriber.receive(1)
    subscriber.receive(completion: .finished)
  }
}
