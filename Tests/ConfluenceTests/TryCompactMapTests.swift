import Confluence
import ConfluenceTesting
import XCTest

/// Prints as Apple's documentation shows it.
private struct ParseError: Error, CustomStringConvertible {
  var description: String { "ParseError()" }
}

final class TryCompactMapTests: XCTestCase {
  func test_republishesNonNilResults_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, any Error>()
    ["1", "x", "3"].publisher.tryCompactMap { Int($0) }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryCompactMap)", "value(1)", "value(3)", "completion(finished)"])
  }

  func test_requestsOneMoreForEachNil_finiteDemand() {
    let upstream = ScriptedUpstream<String, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    upstream.tryCompactMap { Int($0) }.subscribe(subscriber)
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requested, [.max(1)])
    XCTAssertEqual(upstream.send("a"), .max(1))
    XCTAssertEqual(upstream.send("2"), .none)
    XCTAssertEqual(subscriber.values, [2])
  }

  func test_failsAndCancelsUpstream_closureThrows() {
    let upstream = ScriptedUpstream<String, Never>()
    upstream.keepsSendingAfterCancel = true
    let subscriber = TestSubscriber<String, any Error>()
    upstream.tryCompactMap { someVal -> String? in
      if someVal == "boom" { throw TestError("boom") }
      return someVal
    }.subscribe(subscriber)
    upstream.send("a", "boom", "b")
    upstream.send(completion: .finished)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryCompactMap)", "value(a)", "completion(failure(boom))"])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_forwardsFailure_upstreamFails() {
    let upstream = ScriptedUpstream<String, TestError>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryCompactMap { Int($0) }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError("upstream")))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryCompactMap)", "completion(failure(upstream))"])
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<String, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    upstream.tryCompactMap { Int($0) }.subscribe(subscriber)
    subscriber.cancel()
    upstream.send("1")
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryCompactMap)"])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_stopsDelivery_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, any Error>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    ["1", "2"].publisher.tryCompactMap { Int($0) }.subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryCompactMap)", "value(1)"])
  }

  func test_description() {
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    ScriptedUpstream<String, Never>().tryCompactMap { Int($0) }.subscribe(subscriber)
    XCTAssertEqual(subscriber.subscriptionDescription, "TryCompactMap")
  }

  func test_fusion_compactMap() {
    let fused: Publishers.TryCompactMap<Publishers.Sequence<[String], Never>, Int> =
      ["1", "x", "20", "3"].publisher.tryCompactMap { Int($0) }.compactMap { value -> Int? in
        if value == 3 { throw TestError("three") }
        return value < 10 ? value : nil
      }
    let subscriber = TestSubscriber<Int, any Error>()
    fused.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(TryCompactMap)", "value(1)", "completion(failure(three))"])
  }

  func test_releasesClosure_onCancel() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<String, Never>()
    let subscriber = TestSubscriber<Int, any Error>()
    do {
      let probe = tracker.make()
      upstream.tryCompactMap { Int($0).map { $0 + probe.id } }.subscribe(subscriber)
    }
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }

  /// Apple's documentation example for `tryCompactMap(_:)`.
  func test_appleExample_romanNumerals() {
    func romanNumeral(from: Int) throws -> String? {
      let romanNumeralDict: [Int: String] = [1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"]
      guard from != 0 else { throw ParseError() }
      return romanNumeralDict[from]
    }
    var printed = ""
    let cancellable = [6, 5, 4, 3, 2, 1, 0].publisher
      .tryCompactMap { try romanNumeral(from: $0) }
      .sink(
        receiveCompletion: { print("\($0)", to: &printed) },
        receiveValue: { print("\($0)", terminator: " ", to: &printed) })
    XCTAssertEqual(printed, "V IV III II I failure(ParseError())\n")
    cancellable.cancel()
  }
}
