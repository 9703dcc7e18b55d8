import Confluence
import ConfluenceTesting
import XCTest

final class DropWhileTests: XCTestCase {
  func test_dropsUntilPredicateFails_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, Never>()
    [-2, -1, 0, 1, -5].genericPublisher.drop { $0 < 0 }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events, [.subscription("DropWhile"), .value(0), .value(1), .value(-5), .completion(.finished)])
  }

  func test_stopsCallingPredicate_afterFirstFalse() {
    var calls = 0
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2, 3, 4].publisher.drop { value in
      calls += 1; return value < 2
    }.subscribe(subscriber)
    XCTAssertEqual(calls, 2)
    XCTAssertEqual(subscriber.values, [2, 3, 4])
  }

  func test_requestsOneMoreForEachDroppedValue_finiteDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.drop { $0 < 3 }.subscribe(subscriber)
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requested, [.max(1)])
    XCTAssertEqual(upstream.send(1), .max(1))
    XCTAssertEqual(upstream.send(2), .max(1))
    XCTAssertEqual(upstream.send(3), .none)
    XCTAssertEqual(subscriber.values, [3])
  }

  func test_forwardsFailure_upstreamFails() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.drop { $0 < 3 }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(subscriber.events, [.subscription("DropWhile"), .completion(.failure(TestError("boom")))])
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.drop { _ in false }.subscribe(subscriber)
    subscriber.cancel()
    upstream.send(1)
    XCTAssertEqual(subscriber.events, [.subscription("DropWhile")])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_stopsDelivery_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    (1...5).genericPublisher.drop { $0 < 3 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("DropWhile"), .value(3)])
  }

  func test_description() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    ScriptedUpstream<Int, Never>().drop { _ in true }.subscribe(subscriber)
    XCTAssertEqual(subscriber.subscriptionDescription, "DropWhile")
  }

  func test_releasesClosure_onCancel() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    do {
      let probe = tracker.make()
      upstream.drop { $0 < probe.id }.subscribe(subscriber)
    }
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_releasesClosure_onCompletion() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    do {
      let probe = tracker.make()
      upstream.drop { $0 < probe.id }.subscribe(subscriber)
    }
    upstream.send(completion: .finished)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  /// Apple's documentation example for `drop(while:)`.
  func test_appleExample_dropsNonPositive() {
    let subscriber = TestSubscriber<Int, Never>()
    [-62, -1, 0, 10, 0, 22, 41, -1, 5].publisher.drop { $0 <= 0 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [10, 0, 22, 41, -1, 5])
  }

  /// The book's `drop(while:)` on string lengths: drops while the text is longer than 3.
  func test_bookExample_dropsLongStrings() {
    let subscriber = TestSubscriber<String, Never>()
    ["long", "longer", "ok", "longest"].publisher
      .drop { upstreamValue -> Bool in
        return upstreamValue.count > 3
      }
      .subscribe(subscriber)
    XCTAssertEqual(subscriber.values, ["ok", "longest"])
  }
}
