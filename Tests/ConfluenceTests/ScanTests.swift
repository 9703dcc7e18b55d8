import Confluence
import ConfluenceTesting
import XCTest

final class ScanTests: XCTestCase {
  func test_publishesRunningResults_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2, 3].genericPublisher.scan(10) { $0 + $1 }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events, [.subscription("[1, 2, 3]"), .value(11), .value(13), .value(16), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_passesDemandThrough_finiteDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none, demandPerValue: .max(1))
    upstream.scan(0) { $0 + $1 }.subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [])
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requested, [.max(1)])
    XCTAssertEqual(upstream.send(5), .max(1))
    XCTAssertEqual(upstream.send(6), .max(1))
    XCTAssertEqual(subscriber.values, [5, 11])
  }

  func test_passesUpstreamSubscriptionThrough() {
    let subscriber = TestSubscriber<Int, Never>()
    ScriptedUpstream<Int, Never>().scan(0) { $0 + $1 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.subscriptionDescription, "ScriptedUpstream")
  }

  func test_forwardsFailure_upstreamFails() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.scan(0) { $0 + $1 }.subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(
      subscriber.events, [.subscription("ScriptedUpstream"), .value(1), .completion(.failure(TestError("boom")))])
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.scan(0) { $0 + $1 }.subscribe(subscriber)
    subscriber.cancel()
    upstream.send(1)
    XCTAssertEqual(subscriber.events, [.subscription("ScriptedUpstream")])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_stopsDelivery_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { value in
      if value == 3 { subscriber.cancel() }
      return .none
    }
    (1...5).publisher.scan(0) { $0 + $1 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 3])
    XCTAssertNil(subscriber.completion)
  }

  func test_startsFromInitialResult_eachSubscription() {
    let scan = [1, 2].publisher.scan(0) { $0 + $1 }
    let first = TestSubscriber<Int, Never>()
    let second = TestSubscriber<Int, Never>()
    scan.subscribe(first)
    scan.subscribe(second)
    XCTAssertEqual(first.values, [1, 3])
    XCTAssertEqual(second.values, [1, 3])
  }

  func test_description() {
    // What upstream sees (and `print` placed before `scan` would show) is the subscriber.
    let upstream = ScriptedUpstream<Int, Never>()
    upstream.scan(0) { $0 + $1 }.subscribe(TestSubscriber<Int, Never>())
    XCTAssertEqual(upstream.subscriberDescription, "Scan")
  }

  func test_releasesClosure_onCancel() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    do {
      let probe = tracker.make()
      upstream.scan(0) { $0 + $1 + probe.id }.subscribe(subscriber)
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
      upstream.scan(0) { $0 + $1 + probe.id }.subscribe(subscriber)
    }
    upstream.send(completion: .finished)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  /// The book's (and Apple's) `scan` example: "0 1 3 6 10 15 ".
  func test_bookExample_runningTotal() {
    var printed = ""
    let cancellable = (0...5).publisher
      .scan(0, { return $0 + $1 })
      .sink(receiveValue: { print("\($0)", terminator: " ", to: &printed) })
    XCTAssertEqual(printed, "0 1 3 6 10 15 ")
    cancellable.cancel()
  }

  /// The book's character-counting `scan`: counts the characters of every string so far.
  func test_bookExample_countsCharacters() {
    let subscriber = TestSubscriber<Int, Never>()
    ["a", "bc", "def"].publisher
      .scan(
        0,
        { prevVal, newValueFromPublisher -> Int in
          return prevVal + newValueFromPublisher.count
        }
      )
      .subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 3, 6])
  }
}
