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
    XCTAssertEqual(trigger.cancels, 1, "the trigger is released after its first output")
    upstream.send(3)
    upstream.finish()
    XCTAssertEqual(subscriber.events, [.subscription("DropUntilOutput"), .value(3), .completion(.finished)])
  }

  func test_droppedValuesAreReplacedUpstream() {
    let trigger = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    let upstream = ManualPublisher<Int, Never>()
    upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [.max(2)])
    upstream.send(1)
    XCTAssertEqual(subscriber.demands, [.max(2)], "the drop asks upstream, not downstream, for a replacement")
    trigger.send(0)
    upstream.send(2)
    upstream.send(3)
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

  func test_triggerFinishingWithoutOutput_keepsDropping() {
    let upstream = ManualPublisher<Int, TestError>()
    let trigger = ManualPublisher<String, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
    trigger.finish()
    upstream.send(1)
    upstream.finish()
    XCTAssertEqual(subscriber.events, [.subscription("DropUntilOutput"), .completion(.finished)])
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
