import Confluence
import ConfluenceTesting
import XCTest

final class RemoveDuplicatesTests: XCTestCase {
  func test_dropsRepeatedValues_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, Never>()
    [1, 1, 2, 2, 2, 3, 1].genericPublisher.removeDuplicates().subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events,
      [.subscription("RemoveDuplicates"), .value(1), .value(2), .value(3), .value(1), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  /// The value is handed downstream after the operator has remembered it: a value the
  /// downstream makes the upstream send from inside `receive(_:)` is compared with it.
  func test_valueSentFromInsideReceive_comparedWithTheOneBeingDelivered() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.removeDuplicates().subscribe(subscriber)
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
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.removeDuplicates().subscribe(subscriber)
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requested, [.max(1)])
    XCTAssertEqual(upstream.send(7), .none)
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.send(7), .max(1))
    XCTAssertEqual(upstream.send(7), .max(1))
    XCTAssertEqual(upstream.send(8), .none)
    XCTAssertEqual(upstream.requested, [.max(1), .max(1)])
    XCTAssertEqual(subscriber.values, [7, 8])
  }

  func test_comparesWithPreviousUpstreamValue_customPredicate() {
    // "Close to the previous element" is not transitive: each element is compared with the
    // one upstream sent just before it, dropped or not.
    let subscriber = TestSubscriber<Int, Never>()
    [0, 1, 2, 3, 10, 11].publisher.removeDuplicates { abs($0 - $1) <= 1 }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [0, 10])
  }

  func test_forwardsFailure_upstreamFails() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.removeDuplicates().subscribe(subscriber)
    upstream.send(1, 1)
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(
      subscriber.events, [.subscription("RemoveDuplicates"), .value(1), .completion(.failure(TestError("boom")))])
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.removeDuplicates().subscribe(subscriber)
    subscriber.cancel()
    upstream.send(1)
    XCTAssertEqual(subscriber.events, [.subscription("RemoveDuplicates")])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_stopsDelivery_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { value in
      if value == 2 { subscriber.cancel() }
      return .none
    }
    [1, 1, 2, 3].genericPublisher.removeDuplicates().subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("RemoveDuplicates"), .value(1), .value(2)])
  }

  func test_description() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    ScriptedUpstream<Int, Never>().removeDuplicates().subscribe(subscriber)
    XCTAssertEqual(String(describing: subscriber.subscription!), "RemoveDuplicates")
    // As Apple's: the mirror shows the last value seen beside the downstream.
    XCTAssertEqual(Mirror(reflecting: subscriber.subscription!).children.map(\.label), ["downstream", "last"])
  }

  func test_releasesClosure_onCancel() {
    let tracker = LifetimeTracker()
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    do {
      let probe = tracker.make()
      upstream.removeDuplicates { $0 == $1 && probe.id > 0 }.subscribe(subscriber)
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
      upstream.removeDuplicates { $0 == $1 && probe.id > 0 }.subscribe(subscriber)
    }
    upstream.send(completion: .finished)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  /// Apple's documentation example for `removeDuplicates()`: "0 1 2 3 4 0".
  func test_appleExample_equatable() {
    var printed = ""
    let cancellable = [0, 1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 0].publisher
      .removeDuplicates()
      .sink { print("\($0)", terminator: " ", to: &printed) }
    XCTAssertEqual(printed, "0 1 2 3 4 0 ")
    cancellable.cancel()
  }

  /// Apple's documentation example for `removeDuplicates(by:)`, points equal by `x`.
  func test_appleExample_byPredicate() {
    struct Point: Equatable {
      let x: Int
      let y: Int
    }
    let points = [Point(x: 0, y: 0), Point(x: 0, y: 1), Point(x: 1, y: 1), Point(x: 2, y: 1)]
    let subscriber = TestSubscriber<Point, Never>()
    points.publisher
      .removeDuplicates { prev, current in
        prev.x == current.x
      }
      .subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [Point(x: 0, y: 0), Point(x: 1, y: 1), Point(x: 2, y: 1)])
  }

  /// The book's `removeDuplicates(by:)` comparing by `id`, and the subscription a `print`
  /// after `removeDuplicates` shows ("receive subscription: (RemoveDuplicates)").
  func test_bookExample_byIdentifier() {
    struct User {
      let id: Int
      let name: String
    }
    let subscriber = TestSubscriber<String, Never>()
    [User(id: 1, name: "h"), User(id: 1, name: "he"), User(id: 2, name: "hec")].publisher
      .removeDuplicates(by: { first, second -> Bool in
        first.id == second.id
      })
      .map(\.name)
      .subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events,
      [.subscription("RemoveDuplicates"), .value("h"), .value("hec"), .completion(.finished)])
  }
}
