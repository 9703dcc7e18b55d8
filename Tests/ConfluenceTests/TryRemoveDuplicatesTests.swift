import Confluence
import ConfluenceTesting
import XCTest

/// Prints as Apple's documentation shows it.
private struct BadValuesError: Error, CustomStringConvertible {
  var description: String { "BadValuesError()" }
}

final class TryRemoveDuplicatesTests: XCTestCase {
  func test_dropsRepeatedValues_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, any Error>()
    [1, 1, 2, 1].publisher.tryRemoveDuplicates { $0 == $1 }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions,
      ["subscription(TryRemoveDuplicates)", "value(1)", "value(2)", "value(1)", "completion(finished)"])
  }

  /// The value is handed downstream after the operator has remembered it: a value the
  /// downstream makes the upstream send from inside `receive(_:)` is compared with it.
  func test_valueSentFromInsideReceive_comparedWithTheOneBeingDelivered() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryRemoveDuplicates { $0 == $1 }.subscribe(subscriber)
    var nested: [Subscribers.Demand] = []
    subscriber.onValue = { value in
      if value == 1 { nested.append(upstream.send(1)) }
      return .none
    }
    XCTAssertEqual(upstream.send(1), .none)
    XCTAssertEqual(nested, [.max(1)], "the nested 1 repeats the 1 being delivered: dropped")
    XCTAssertEqual(subscriber.values, [1])
  }

  func test_requestsOneMoreForEachDuplicate_finiteDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    upstream.tryRemoveDuplicates { $0 == $1 }.subscribe(subscriber)
    subscriber.request(.max(2))
    XCTAssertEqual(upstream.requested, [.max(2)])
    XCTAssertEqual(upstream.send(3), .none)
    XCTAssertEqual(upstream.send(3), .max(1))
    XCTAssertEqual(upstream.send(4), .none)
    XCTAssertEqual(subscriber.values, [3, 4])
  }

  func test_failsAndCancelsUpstream_closureThrows() {
    let upstream = ScriptedUpstream<Int, Never>()
    upstream.keepsSendingAfterCancel = true
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryRemoveDuplicates { _, second in
      if second < 0 { throw TestError("negative") }
      return false
    }.subscribe(subscriber)
    upstream.send(1, 2, -1, 3)
    upstream.send(completion: .finished)
    XCTAssertEqual(
      subscriber.eventDescriptions,
      ["subscription(TryRemoveDuplicates)", "value(1)", "value(2)", "completion(failure(negative))"])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_forwardsFailure_upstreamFails() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, any Error>()
    upstream.tryRemoveDuplicates { $0 == $1 }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryRemoveDuplicates)", "completion(failure(boom))"])
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    upstream.tryRemoveDuplicates { $0 == $1 }.subscribe(subscriber)
    subscriber.cancel()
    upstream.send(1)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryRemoveDuplicates)"])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_stopsDelivery_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, any Error>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    [1, 2, 3].publisher.tryRemoveDuplicates { $0 == $1 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(TryRemoveDuplicates)", "value(1)"])
  }

  func test_description() {
    let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
    ScriptedUpstream<Int, Never>().tryRemoveDuplicates { $0 == $1 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.subscriptionDescription, "TryRemoveDuplicates")
  }

  func test_releasesClosure_onCancel() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, any Error>()
    do {
      let probe = tracker.make()
      upstream.tryRemoveDuplicates { $0 == $1 && probe.id > 0 }.subscribe(subscriber)
    }
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }

  /// Apple's documentation example for `tryRemoveDuplicates(by:)`.
  func test_appleExample_badValues() {
    var printed = ""
    let cancellable = [0, 0, 0, 0, 1, 2, 2, 3, 3, 3, 4, 4, 4, 4].publisher
      .tryRemoveDuplicates { first, second -> Bool in
        if first == 4 && second == 4 {
          throw BadValuesError()
        }
        return first == second
      }
      .sink(
        receiveCompletion: { print("\($0)", to: &printed) },
        receiveValue: { print("\($0)", terminator: " ", to: &printed) })
    XCTAssertEqual(printed, "0 1 2 3 4 failure(BadValuesError())\n")
    cancellable.cancel()
  }
}
