import Confluence
import ConfluenceTesting
import XCTest

/// Prints as Apple's documentation shows it.
private struct ZeroError: Error, CustomStringConvertible {
  var description: String { "ZeroError()" }
}

final class TryFilterTests: XCTestCase {
  func test_republishesMatchingValues_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, any Error>()
    (1...6).publisher.tryFilter { $0 % 2 == 0 }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions,
      ["subscription(TryFilter)", "value(2)", "value(4)", "value(6)", "completion(finished)"])
  }

  func test_requestsOneMoreForEachDroppedValue_finiteDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    upstream.tryFilter { $0 > 2 }.subscribe(subscriber)
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requested, [.max(1)])
    XCTAssertEqual(upstream.send(1), .max(1))
    XCTAssertEqual(upstream.send(2), .max(1))
    XCTAssertEqual(upstream.send(3), .none)
    XCTAssertEqual(subscriber.values, [3])
  }

  func test_failsAndCancelsUpstream_closureThrows() {
    let upstream = ScriptedUpstream<Int, Never>()
    upstream.keepsSendingAfterCancel = true
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryFilter { value in
      if value == 0 { throw TestError("zero") }
      return true
    }.subscribe(subscriber)
    upstream.send(1, 0, 2)
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryFilter)", "value(1)", "completion(failure(zero))"])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_forwardsFailure_upstreamFails() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryFilter { _ in true }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryFilter)", "completion(failure(boom))"])
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    upstream.tryFilter { _ in true }.subscribe(subscriber)
    subscriber.cancel()
    upstream.send(1)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryFilter)"])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_stopsDelivery_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, any Error>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    (1...5).publisher.tryFilter { $0 > 1 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryFilter)", "value(2)"])
  }

  func test_description() {
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    ScriptedUpstream<Int, Never>().tryFilter { _ in true }.subscribe(subscriber)
    XCTAssertEqual(subscriber.subscriptionDescription, "TryFilter")
    XCTAssertEqual(Mirror(reflecting: subscriber.subscription!).children.map(\.label), ["downstream"])
  }

  func test_fusion_tryFilterThenFilterAndTryFilter() {
    let fused: Publishers.TryFilter<Publishers.Sequence<ClosedRange<Int>, Never>> =
      (1...30).publisher.tryFilter { $0 % 2 == 0 }.filter { $0 % 3 == 0 }.tryFilter { $0 % 5 == 0 }
    let subscriber = TestSubscriber<Int, any Error>()
    fused.subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryFilter)", "value(30)", "completion(finished)"])
  }

  func test_releasesClosure_onCancel() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>()
    do {
      let probe = tracker.make()
      upstream.tryFilter { $0 > probe.id }.subscribe(subscriber)
    }
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_releasesClosure_onCompletion() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>()
    do {
      let probe = tracker.make()
      upstream.tryFilter { $0 > probe.id }.subscribe(subscriber)
    }
    upstream.send(completion: .finished)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  /// Apple's documentation example for `tryFilter(_:)`.
  func test_appleExample_zeroThrows() {
    var output: [String] = []
    let cancellable = [1, 2, 3, 4, 0, 5].publisher
      .tryFilter {
        if $0 == 0 { throw ZeroError() } else { return $0 % 2 == 0 }
      }
      .sink(receiveCompletion: { output.append("\($0)") }, receiveValue: { output.append("\($0)") })
    XCTAssertEqual(output, ["2", "4", "failure(ZeroError())"])
    cancellable.cancel()
  }
}
