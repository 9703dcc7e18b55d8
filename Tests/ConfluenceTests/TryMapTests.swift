import Confluence
import ConfluenceTesting
import XCTest

/// Prints as Apple's documentation shows it.
private struct ParseError: Error, CustomStringConvertible {
  var description: String { "ParseError()" }
}

final class TryMapTests: XCTestCase {
  func test_transformsValues_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, any Error>()
    [1, 2, 3].publisher.tryMap { $0 * 10 }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions,
      ["subscription(TryMap)", "value(10)", "value(20)", "value(30)", "completion(finished)"])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_passesDemandThrough_finiteDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<String, any Error>(initialDemand: .none, demandPerValue: .max(1))
    upstream.tryMap { String($0) }.subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [])
    subscriber.request(.max(2))
    XCTAssertEqual(upstream.requested, [.max(2)])
    XCTAssertEqual(upstream.send(1), .max(1))
    subscriber.request(.unlimited)
    XCTAssertEqual(upstream.requested, [.max(2), .unlimited])
    XCTAssertEqual(subscriber.values, ["1"])
  }

  func test_failsAndCancelsUpstream_closureThrows() {
    let upstream = ScriptedUpstream<Int, Never>()
    upstream.keepsSendingAfterCancel = true
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryMap { value -> Int in
      if value == 2 { throw TestError("two") }
      return value
    }.subscribe(subscriber)
    // Apple's tryMap keeps no end state for values: whatever upstream still sends after the
    // throw is mapped and passed on (a well-behaved upstream sends nothing after cancel);
    // only its completion is dropped.
    subscriber.onViolation = { _ in }
    upstream.send(1, 2, 3)
    upstream.send(completion: .finished)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryMap)", "value(1)", "completion(failure(two))", "value(3)"])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_forwardsFailureAsError_upstreamFails() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryMap { $0 }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryMap)", "completion(failure(boom))"])
    XCTAssertEqual(
      subscriber.completion.flatMap { if case .failure(let e) = $0 { e as? TestError } else { nil } }, TestError("boom")
    )
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    upstream.tryMap { $0 }.subscribe(subscriber)
    subscriber.cancel()
    upstream.send(1)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryMap)"])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_stopsDelivery_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, any Error>()
    subscriber.onValue = { value in
      if value == 2 { subscriber.cancel() }
      return .none
    }
    (1...5).publisher.tryMap { $0 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryMap)", "value(1)", "value(2)"])
  }

  func test_throwAfterCancel_stillFails_asApples() {
    // Apple's tryMap reports every throw, even with no live subscription; upstream is
    // cancelled once.
    let upstream = ScriptedUpstream<Int, Never>()
    upstream.keepsSendingAfterCancel = true
    let subscriber = TestSubscriber<Int, any Error>(strictCancellation: false)
    upstream.tryMap { _ -> Int in throw TestError("x") }.subscribe(subscriber)
    subscriber.cancel()
    upstream.send(1)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryMap)", "completion(failure(x))"])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_requestAndCancel_fromManyThreads() {
    for _ in 0..<20 {
      let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none, strictCancellation: false)
      (1...10_000).genericPublisher.tryMap { $0 }.subscribe(subscriber)
      DispatchQueue.concurrentPerform(iterations: 8) { index in
        if index == 5 {
          subscriber.cancel()
        } else {
          subscriber.request(.max(3))
        }
      }
      XCTAssertEqual(subscriber.violations, [])
      XCTAssertLessThanOrEqual(subscriber.values.count, 21)
      // (A half-open range: when the cancel comes first, no value arrives and `1...0` would trap.)
      XCTAssertEqual(subscriber.values, Array(1..<(subscriber.values.count + 1)))
      XCTAssertNil(subscriber.completion)
    }
  }

  func test_description() {
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    ScriptedUpstream<Int, Never>().tryMap { $0 }.subscribe(subscriber)
    let subscription = subscriber.subscription!
    XCTAssertEqual(String(describing: subscription), "TryMap")
    XCTAssertEqual((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, "TryMap")
    XCTAssertTrue(Mirror(reflecting: subscription).children.isEmpty, "Apple's TryMap shows no children")
  }

  func test_fusion_mapThenTryMap_isOneTryMap() {
    let fused: Publishers.TryMap<Publishers.Sequence<[Int], Never>, String> =
      [1, 2].publisher.map { $0 + 1 }.tryMap { String($0) }
    let subscriber = TestSubscriber<String, any Error>()
    fused.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, ["2", "3"])
  }

  func test_fusion_tryMapThenMapAndTryMap_isOneTryMap() {
    let fused: Publishers.TryMap<Publishers.Sequence<[Int], Never>, Int> =
      [1, 2, 3].publisher.tryMap { $0 * 2 }.map { $0 + 1 }.tryMap { value -> Int in
        if value == 7 { throw TestError("seven") }
        return value
      }
    let subscriber = TestSubscriber<Int, any Error>()
    fused.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryMap)", "value(3)", "value(5)", "completion(failure(seven))"])
  }

  func test_releasesClosure_onCancel() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>()
    do {
      let probe = tracker.make()
      upstream.tryMap { $0 + probe.id }.subscribe(subscriber)
    }
    var subscription = subscriber.subscription as AnyObject?
    XCTAssertEqual(tracker.liveCount, 1)
    subscriber.cancel()
    assertReleased(&subscription)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_releasesClosure_onThrow() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>()
    do {
      let probe = tracker.make()
      upstream.tryMap { _ -> Int in
        _ = probe; throw TestError()
      }.subscribe(subscriber)
    }
    upstream.send(1)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  /// Apple's documentation example for `tryMap(_:)`.
  func test_appleExample_romanNumerals() {
    func romanNumeral(from: Int) throws -> String {
      let romanNumeralDict: [Int: String] = [1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"]
      guard let numeral = romanNumeralDict[from] else { throw ParseError() }
      return numeral
    }
    var output: [String] = []
    let cancellable = [5, 4, 3, 2, 1, 0].publisher
      .tryMap { try romanNumeral(from: $0) }
      .sink(receiveCompletion: { output.append("completion: \($0)") }, receiveValue: { output.append($0) })
    XCTAssertEqual(output, ["V", "IV", "III", "II", "I", "completion: failure(ParseError())"])
    cancellable.cancel()
  }

  /// The book's `tryMap` example (reference chapter): `Just(5)` passes the check. On
  /// `Just`, Apple's specialised overload runs the closure at once and returns a
  /// `Result.Publisher` (shown as `Once`).
  func test_bookExample_justPassesCheck() {
    enum MyFailure: Error { case notBigEnough }
    let subscriber = TestSubscriber<Int, any Error>()
    Just(5).tryMap { inValue -> Int in
      if inValue < 5 { throw MyFailure.notBigEnough }
      return inValue
    }.subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Once)", "value(5)", "completion(finished)"])
  }
}
