import Confluence
import ConfluenceTesting
import XCTest

final class DropUntilOutputTests: XCTestCase {
  func test_dropsUntilTheOtherPublisherEmits() {
    let upstream = ManualPublisher<Int, TestError>()
    let trigger = ManualPublisher<String, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
    XCTAssertEqual(trigger.requested, [.max(1)])
    upstream.send(1)
    upstream.send(2)
    trigger.send("go")
    XCTAssertEqual(trigger.cancels, 0, "as Apple's: released after its first output, not cancelled")
    upstream.send(3)
    upstream.finish()
    XCTAssertEqual(subscriber.events, [.subscription("DropUntilOutput"), .value(3), .completion(.finished)])
  }

  // As Apple's: a dropped value uses up demand like a delivered one (nothing is asked in
  // its place); sending more than was asked for traps (see MisuseTrapTests).
  func test_droppedValuesUseUpTheDemand() {
    let trigger = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
    let upstream = ManualPublisher<Int, Never>()
    upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [.max(3)])
    upstream.send(1)
    trigger.send(0)
    upstream.send(2)
    upstream.send(3)
    XCTAssertEqual(upstream.requested, [.max(3)], "nothing asked in place of the dropped value")
    XCTAssertEqual(subscriber.values, [2, 3])
  }

  func test_triggerFailure_failsAndCancelsUpstream() {
    let upstream = ManualPublisher<Int, TestError>()
    let trigger = ManualPublisher<String, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
    trigger.fail(TestError("trigger"))
    XCTAssertEqual(subscriber.completion, .failure(TestError("trigger")))
    XCTAssertEqual(upstream.cancels, 1)
  }

  // As Apple's: an other publisher that finishes without output cancels upstream and
  // finishes the downstream; a completion upstream sends anyway is passed on too.
  func test_triggerFinishingWithoutOutput_finishesTheDownstream() {
    let upstream = ManualPublisher<Int, TestError>()
    let trigger = ManualPublisher<String, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    subscriber.onViolation = { _ in }
    upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
    trigger.finish()
    XCTAssertEqual(upstream.cancels, 1)
    upstream.finish()
    XCTAssertEqual(
      subscriber.events, [.subscription("DropUntilOutput"), .completion(.finished), .completion(.finished)])
  }

  func test_upstreamFailure_cancelsTrigger() {
    let upstream = ManualPublisher<Int, TestError>()
    let trigger = ManualPublisher<String, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
    upstream.fail(TestError("up"))
    XCTAssertEqual(subscriber.completion, .failure(TestError("up")))
    XCTAssertEqual(trigger.cancels, 1)
  }

  func test_cancel_cancelsBoth() {
    let upstream = ManualPublisher<Int, TestError>()
    let trigger = ManualPublisher<String, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
    subscriber.cancel()
    XCTAssertEqual(upstream.cancels, 1)
    XCTAssertEqual(trigger.cancels, 1)
  }
}
