import Confluence
import ConfluenceTesting
import XCTest

/// Prints as Apple's documentation shows it.
private struct DivisionByZeroError: Error, CustomStringConvertible {
  var description: String { "DivisionByZeroError()" }
}

final class TryScanTests: XCTestCase {
  func test_publishesRunningResults_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, any Error>()
    [1, 2, 3].publisher.tryScan(0) { $0 + $1 }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions,
      ["subscription(TryScan)", "value(1)", "value(3)", "value(6)", "completion(finished)"])
  }

  func test_passesDemandThrough_finiteDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none, demandPerValue: .max(2))
    upstream.tryScan(0) { $0 + $1 }.subscribe(subscriber)
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requested, [.max(1)])
    XCTAssertEqual(upstream.send(4), .max(2))
    XCTAssertEqual(subscriber.values, [4])
  }

  func test_failsAndCancelsUpstream_closureThrows() {
    let upstream = ScriptedUpstream<Int, Never>()
    upstream.keepsSendingAfterCancel = true
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryScan(0) { total, next in
      if next == 0 { throw TestError("zero") }
      return total + next
    }.subscribe(subscriber)
    // As Apple's: values upstream still sends after the throw are scanned and passed on (a
    // well-behaved upstream sends none after cancel); a further throw and the completion
    // are dropped.
    subscriber.onViolation = { _ in }
    upstream.send(1, 0, 2, 0)
    upstream.send(completion: .finished)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryScan)", "value(1)", "completion(failure(zero))", "value(3)"])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_forwardsFailure_upstreamFails() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryScan(0) { $0 + $1 }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryScan)", "completion(failure(boom))"])
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    upstream.tryScan(0) { $0 + $1 }.subscribe(subscriber)
    subscriber.cancel()
    upstream.send(1)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryScan)"])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_stopsDelivery_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, any Error>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    (1...5).publisher.tryScan(0) { $0 + $1 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryScan)", "value(1)"])
  }

  func test_startsFromInitialResult_eachSubscription() {
    let scan = [1, 2].publisher.tryScan(0) { $0 + $1 }
    let first = TestSubscriber<Int, any Error>()
    let second = TestSubscriber<Int, any Error>()
    scan.subscribe(first)
    scan.subscribe(second)
    XCTAssertEqual(first.values, [1, 3])
    XCTAssertEqual(second.values, [1, 3])
  }

  func test_description() {
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    ScriptedUpstream<Int, Never>().tryScan(0) { $0 + $1 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.subscriptionDescription, "TryScan")
  }

  func test_releasesClosure_onCancel() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>()
    do {
      let probe = tracker.make()
      upstream.tryScan(0) { $0 + $1 + probe.id }.subscribe(subscriber)
    }
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }

  /// Apple's documentation example for `tryScan(_:_:)`.
  func test_appleExample_divisionByZero() {
    var printed = ""
    let cancellable = [1, 2, 3, 4, 0, 5].publisher
      .tryScan(10) {
        guard $1 != 0 else { throw DivisionByZeroError() }
        return ($0 * $1) / $1
      }
      .sink(
        receiveCompletion: { print("\($0)", to: &printed) },
        receiveValue: { print("\($0)", terminator: " ", to: &printed) })
    XCTAssertEqual(printed, "10 10 10 10 failure(DivisionByZeroError())\n")
    cancellable.cancel()
  }
}
