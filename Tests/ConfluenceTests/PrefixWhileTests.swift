import Confluence
import ConfluenceTesting
import XCTest

final class PrefixWhileTests: XCTestCase {
  func test_publishesWhilePredicateHolds_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2, 5, 3].genericPublisher.prefix { $0 < 4 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("PrefixWhile"), .value(1), .value(2), .completion(.finished)])
  }

  func test_cancelsUpstream_predicateFails() {
    let upstream = ScriptedUpstream<Int, Never>()
    upstream.keepsSendingAfterCancel = true
    let subscriber = TestSubscriber<Int, Never>()
    upstream.prefix { $0 < 4 }.subscribe(subscriber)
    upstream.send(1, 9)
    XCTAssertEqual(upstream.cancelCount, 1)
    upstream.send(2)
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("PrefixWhile"), .value(1), .completion(.finished)])
  }

  func test_passesDemandThrough_finiteDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none, demandPerValue: .max(1))
    upstream.prefix { $0 < 4 }.subscribe(subscriber)
    subscriber.request(.max(2))
    XCTAssertEqual(upstream.requested, [.max(2)])
    XCTAssertEqual(upstream.send(1), .max(1))
    XCTAssertEqual(upstream.send(7), .none)
  }

  func test_forwardsFailure_upstreamFails() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.prefix { $0 < 4 }.subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(
      subscriber.events, [.subscription("PrefixWhile"), .value(1), .completion(.failure(TestError("boom")))])
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.prefix { _ in true }.subscribe(subscriber)
    subscriber.cancel()
    upstream.send(1)
    XCTAssertEqual(subscriber.events, [.subscription("PrefixWhile")])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_stopsDelivery_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    (1...5).genericPublisher.prefix { $0 < 4 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("PrefixWhile"), .value(1)])
  }

  func test_description() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    ScriptedUpstream<Int, Never>().prefix { _ in true }.subscribe(subscriber)
    XCTAssertEqual(subscriber.subscriptionDescription, "PrefixWhile")
  }

  func test_releasesClosure_predicateFails() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    do {
      let probe = tracker.make()
      upstream.prefix { $0 < probe.id }.subscribe(subscriber)
    }
    upstream.send(5)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_releasesClosure_onCancel() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    do {
      let probe = tracker.make()
      upstream.prefix { $0 < probe.id }.subscribe(subscriber)
    }
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }

  /// Apple's documentation example for `prefix(while:)`: "0 1 2 3 4".
  func test_appleExample_belowFive() {
    var printed = ""
    var cancellables: [AnyCancellable] = []
    (0...10).publisher
      .prefix { $0 < 5 }
      .sink { print("\($0)", terminator: " ", to: &printed) }
      .store(in: &cancellables)
    XCTAssertEqual(printed, "0 1 2 3 4 ")
  }

  /// The book's `prefix(while:)` on string lengths: passes values while longer than 3.
  func test_bookExample_longStrings() {
    let subscriber = TestSubscriber<String, Never>()
    ["long", "longer", "ok", "longest"].genericPublisher
      .prefix { upstreamValue -> Bool in
        return upstreamValue.count > 3
      }
      .subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events, [.subscription("PrefixWhile"), .value("long"), .value("longer"), .completion(.finished)])
  }
}
