import Confluence
import ConfluenceTesting
import XCTest

final class TryDropWhileTests: XCTestCase {
  func test_dropsUntilPredicateFails_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, any Error>()
    [1, 2, 3, 1].publisher.tryDrop { $0 < 3 }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryDropWhile)", "value(3)", "value(1)", "completion(finished)"])
  }

  func test_requestsOneMoreForEachDroppedValue_finiteDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    upstream.tryDrop { $0 < 3 }.subscribe(subscriber)
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requested, [.max(1)])
    XCTAssertEqual(upstream.send(1), .max(1))
    XCTAssertEqual(upstream.send(5), .none)
    XCTAssertEqual(subscriber.values, [5])
  }

  func test_failsAndCancelsUpstream_closureThrows() {
    let upstream = ScriptedUpstream<Int, Never>()
    upstream.keepsSendingAfterCancel = true
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryDrop { value in
      if value == 0 { throw TestError("zero") }
      return true
    }.subscribe(subscriber)
    upstream.send(1, 0, 2)
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryDropWhile)", "completion(failure(zero))"])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_neverThrows_afterDroppingStopped() {
    let subscriber = TestSubscriber<Int, any Error>()
    [5, 0].publisher.tryDrop { value in
      if value == 0 { throw TestError("zero") }
      return false
    }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryDropWhile)", "value(5)", "value(0)", "completion(finished)"])
  }

  func test_forwardsFailure_upstreamFails() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryDrop { _ in true }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryDropWhile)", "completion(failure(boom))"])
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    upstream.tryDrop { _ in false }.subscribe(subscriber)
    subscriber.cancel()
    upstream.send(1)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryDropWhile)"])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_stopsDelivery_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, any Error>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    (1...5).publisher.tryDrop { $0 < 2 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryDropWhile)", "value(2)"])
  }

  func test_description() {
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    ScriptedUpstream<Int, Never>().tryDrop { _ in true }.subscribe(subscriber)
    XCTAssertEqual(subscriber.subscriptionDescription, "TryDropWhile")
  }

  func test_releasesClosure_onCancel() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>()
    do {
      let probe = tracker.make()
      upstream.tryDrop { $0 < probe.id }.subscribe(subscriber)
    }
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }

  /// Apple's documentation example for `tryDrop(while:)`, and its failing variant.
  func test_appleExample_rangeCheck() {
    struct RangeError: Error {}
    let range: CountableClosedRange<Int> = (1...100)
    let passing = TestSubscriber<Int, any Error>()
    [1, 2, 3, 4, 5, 6, -1, 7, 8, 9, 10].publisher
      .tryDrop {
        guard $0 != 0 else { throw RangeError() }
        return range.contains($0)
      }
      .subscribe(passing)
    XCTAssertEqual(passing.values, [-1, 7, 8, 9, 10])
    XCTAssertEqual(passing.eventDescriptions.last, "completion(finished)")

    let failing = TestSubscriber<Int, any Error>()
    [1, 2, 3, 4, 5, 6, 0, -1, 7, 8, 9, 10].publisher
      .tryDrop {
        guard $0 != 0 else { throw RangeError() }
        return range.contains($0)
      }
      .subscribe(failing)
    XCTAssertEqual(failing.values, [])
    guard case .failure(let error) = failing.completion else { return XCTFail("expected a failure") }
    XCTAssertTrue(error is RangeError)
  }
}
