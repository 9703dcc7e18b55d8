import Confluence
import ConfluenceTesting
import XCTest

final class TryPrefixWhileTests: XCTestCase {
  func test_publishesWhilePredicateHolds_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, any Error>()
    [1, 2, 5, 3].publisher.tryPrefix { $0 < 4 }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryPrefixWhile)", "value(1)", "value(2)", "completion(finished)"])
  }

  func test_failsAndCancelsUpstream_closureThrows() {
    let upstream = ScriptedUpstream<Int, Never>()
    upstream.keepsSendingAfterCancel = true
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryPrefix { value in
      if value < 0 { throw TestError("negative") }
      return true
    }.subscribe(subscriber)
    upstream.send(1, -1, 2)
    upstream.send(completion: .finished)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryPrefixWhile)", "value(1)", "completion(failure(negative))"])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_passesDemandThrough_finiteDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none, demandPerValue: .max(1))
    upstream.tryPrefix { _ in true }.subscribe(subscriber)
    subscriber.request(.max(3))
    XCTAssertEqual(upstream.requested, [.max(3)])
    XCTAssertEqual(upstream.send(1), .max(1))
  }

  func test_forwardsFailure_upstreamFails() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryPrefix { _ in true }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryPrefixWhile)", "completion(failure(boom))"])
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    upstream.tryPrefix { _ in true }.subscribe(subscriber)
    subscriber.cancel()
    upstream.send(1)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryPrefixWhile)"])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_stopsDelivery_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, any Error>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    (1...5).publisher.tryPrefix { _ in true }.subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryPrefixWhile)", "value(1)"])
  }

  func test_description() {
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    ScriptedUpstream<Int, Never>().tryPrefix { _ in true }.subscribe(subscriber)
    XCTAssertEqual(subscriber.subscriptionDescription, "TryPrefixWhile")
  }

  func test_releasesClosure_onThrow() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>()
    do {
      let probe = tracker.make()
      upstream.tryPrefix { _ in
        _ = probe; throw TestError()
      }.subscribe(subscriber)
    }
    upstream.send(1)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  /// Apple's documentation example for `tryPrefix(while:)`, and its failing variant.
  func test_appleExample_outOfRange() {
    struct OutOfRangeError: Error {}
    let numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -1]
    var printed = ""
    let cancellable = numbers.publisher
      .tryPrefix {
        guard $0 != 0 else { throw OutOfRangeError() }
        return $0 <= numbers.max()!
      }
      .sink(
        receiveCompletion: { print("completion: \($0)", terminator: " ", to: &printed) },
        receiveValue: { print("\($0)", terminator: " ", to: &printed) })
    XCTAssertEqual(printed, "1 2 3 4 5 6 7 8 9 10 -1 completion: finished ")
    cancellable.cancel()

    let failing = TestSubscriber<Int, any Error>()
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0].publisher
      .tryPrefix {
        guard $0 != 0 else { throw OutOfRangeError() }
        return $0 <= numbers.max()!
      }
      .subscribe(failing)
    XCTAssertEqual(failing.values, Array(1...10))
    guard case .failure(let error) = failing.completion else { return XCTFail("expected a failure") }
    XCTAssertTrue(error is OutOfRangeError)
  }
}
