import Confluence
import ConfluenceTesting
import XCTest

final class FilterTests: XCTestCase {
  func test_republishesMatchingValues() {
    let subscriber = TestSubscriber<Int, Never>()
    Publishers.Filter(upstream: (1...6).publisher) { $0.isMultiple(of: 2) }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events, [.subscription("1...6"), .value(2), .value(4), .value(6), .completion(.finished)])
  }

  func test_finiteDemand_requestsOneMorePerDroppedValue() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    Publishers.Filter(upstream: (1...10).publisher) { $0 % 3 == 0 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [3, 6])
    XCTAssertNil(subscriber.completion)
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [3, 6, 9])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_noDemand_deliversNothing() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Publishers.Filter(upstream: (1...3).publisher) { _ in true }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("1...3")])
  }

  func test_filterOnFilter_fuses() {
    let fused: Publishers.Filter<Publishers.Sequence<ClosedRange<Int>, Never>> =
      Publishers.Filter(upstream: (1...20).publisher) { $0.isMultiple(of: 2) }.filter { $0.isMultiple(of: 3) }
    let subscriber = TestSubscriber<Int, Never>()
    fused.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [6, 12, 18])
  }

  func test_cancelInsideReceive_stopsUpstream() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    Publishers.Filter(upstream: (1...5).publisher) { _ in true }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("1...5"), .value(1)])
  }

  func test_requestAfterCancel_isIgnored() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Publishers.Filter(upstream: (1...5).publisher) { _ in true }.subscribe(subscriber)
    let subscription = subscriber.subscription
    subscriber.cancel()
    subscription?.request(.max(3))
    XCTAssertEqual(subscriber.events, [.subscription("1...5")])
  }

  func test_cancel_freesTheChain() {
    let tracker = LifetimeTracker()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    do {
      let probe = tracker.make()
      Publishers.Filter(upstream: (1...5).publisher) { $0 > probe.id }.subscribe(subscriber)
    }
    var subscription = subscriber.subscription as AnyObject?
    subscriber.cancel()
    assertReleased(&subscription)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_requestsOneMoreForEachDroppedValue_finiteDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.filter { $0 % 2 == 0 }.subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [])

    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requested, [.max(1)])
    XCTAssertEqual(upstream.send(1), .max(1))
    XCTAssertEqual(upstream.send(2), .none)

    subscriber.request(.max(2))
    XCTAssertEqual(upstream.requested, [.max(1), .max(2)])
    upstream.send(3, 4, 5, 6)
    XCTAssertEqual(upstream.returned, [.max(1), .max(1), .max(1)])
    XCTAssertEqual(subscriber.events, [.subscription("ScriptedUpstream"), .value(2), .value(4), .value(6)])
  }

  func test_passesDownstreamDemandThrough_demandPerValue() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
    upstream.filter { $0 > 0 }.subscribe(subscriber)
    XCTAssertEqual(upstream.send(1), .max(2))
    XCTAssertEqual(upstream.send(0), .max(1))
  }

  func test_forwardsFailure_upstreamFails() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.filter { $0 > 1 }.subscribe(subscriber)
    upstream.send(1, 2)
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(
      subscriber.events, [.subscription("ScriptedUpstream"), .value(2), .completion(.failure(TestError("boom")))])
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.filter { _ in true }.subscribe(subscriber)
    subscriber.cancel()
    upstream.send(1)
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("ScriptedUpstream")])
    XCTAssertEqual(upstream.cancelCount, 1)
    XCTAssertEqual(upstream.requested, [])
  }

  func test_completionAfterCancel_isPassedOn_asApplesRelayDoes() {
    // Apple's filter is a relay: the downstream cancels upstream's own subscription, and a
    // completion that a misbehaving upstream still sends goes straight through.
    let upstream = ScriptedUpstream<Int, Never>()
    upstream.keepsSendingAfterCancel = true
    let subscriber = TestSubscriber<Int, Never>(strictCancellation: false)
    upstream.filter { _ in true }.subscribe(subscriber)
    subscriber.cancel()
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("ScriptedUpstream"), .completion(.finished)])
  }

  func test_cancelTwice_reachesUpstreamTwice_theSubscriptionIsUpstreams() {
    let upstream = ScriptedUpstream<Int, Never>()
    var subscription: Subscription?
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onSubscription = { subscription = $0 }
    upstream.filter { _ in true }.subscribe(subscriber)
    subscription?.cancel()
    subscription?.cancel()
    XCTAssertEqual(upstream.cancelCount, 2)
  }

  func test_description_theRelayIsFilter_theSubscriptionIsUpstreams() {
    let upstream = DetachedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.filter { _ in true }.subscribe(subscriber)
    let relay = upstream.operatorSubscriber
    XCTAssertEqual(String(describing: relay), "Filter")
    XCTAssertEqual((relay as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, "Filter")
    XCTAssertTrue(Mirror(reflecting: relay).children.isEmpty)
    XCTAssertNil(upstream.operatorSubscription, "a subscriber only")
    upstream.attach()
    XCTAssertEqual(subscriber.subscriptionDescription, "Recording")
  }

  func test_fusesWithTryFilter() {
    let fused: Publishers.TryFilter<Publishers.Sequence<ClosedRange<Int>, Never>> =
      (1...6).publisher.filter { $0 % 2 == 0 }.tryFilter { value in
        if value == 6 { throw TestError("six") }
        return value > 2
      }
    let subscriber = TestSubscriber<Int, any Error>()
    fused.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryFilter)", "value(4)", "completion(failure(six))"])
  }

  func test_releasesClosure_onCancel() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    do {
      let probe = tracker.make()
      upstream.filter { _ in
        _ = probe; return true
      }.subscribe(subscriber)
    }
    XCTAssertEqual(tracker.liveCount, 1)
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_releasesClosure_onCompletion() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    do {
      let probe = tracker.make()
      upstream.filter { _ in
        _ = probe; return true
      }.subscribe(subscriber)
    }
    upstream.send(completion: .finished)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_appleExample_evenNumbers() {
    var output: [Int] = []
    let cancellable = [1, 2, 3, 4, 5].publisher
      .filter { $0 % 2 == 0 }
      .sink { output.append($0) }
    XCTAssertEqual(output, [2, 4])
    cancellable.cancel()
  }
}
