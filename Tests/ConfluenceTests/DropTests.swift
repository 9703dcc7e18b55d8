import Confluence
import ConfluenceTesting
import XCTest

final class DropTests: XCTestCase {
  func test_dropsFirstCount_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, Never>()
    (1...5).genericPublisher.dropFirst(2).subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events, [.subscription("Drop"), .value(3), .value(4), .value(5), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_dropsOne_byDefault() {
    let subscriber = TestSubscriber<Int, Never>()
    (1...3).publisher.dropFirst().subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [2, 3])
  }

  func test_dropsNothing_countZero() {
    let subscriber = TestSubscriber<Int, Never>()
    (1...3).publisher.dropFirst(0).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2, 3])
  }

  // As Apple's: the values to drop are asked for up front, with the downstream's demand
  // (none yet here), and each dropped value is answered with `.none`.
  func test_asksForTheDroppedValuesUpFront_finiteDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.dropFirst(2).subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [.max(2)])
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.requested, [.max(2), .max(1)])
    XCTAssertEqual(upstream.send(1), .none)
    XCTAssertEqual(upstream.send(2), .none)
    XCTAssertEqual(upstream.send(3), .none)
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.send(4), .none)
    XCTAssertEqual(upstream.requested, [.max(2), .max(1), .max(1)])
    XCTAssertEqual(subscriber.values, [3, 4])
  }

  func test_forwardsFailure_upstreamFails() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.dropFirst().subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError("boom")))
    XCTAssertEqual(subscriber.events, [.subscription("Drop"), .completion(.failure(TestError("boom")))])
  }

  func test_sendsNothing_cancelBeforeDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.dropFirst(0).subscribe(subscriber)
    subscriber.cancel()
    upstream.send(1)
    XCTAssertEqual(subscriber.events, [.subscription("Drop")])
    XCTAssertEqual(upstream.cancelCount, 1)
  }

  func test_stopsDelivery_cancelInsideReceive() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    (1...5).genericPublisher.dropFirst(2).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Drop"), .value(3)])
  }

  func test_countsAgain_eachSubscription() {
    let drop = [1, 2, 3].publisher.dropFirst()
    let first = TestSubscriber<Int, Never>()
    let second = TestSubscriber<Int, Never>()
    drop.subscribe(first)
    drop.subscribe(second)
    XCTAssertEqual(first.values, [2, 3])
    XCTAssertEqual(second.values, [2, 3])
  }

  func test_equatable() {
    XCTAssertEqual(Publishers.Drop(upstream: Just(1), count: 2), Publishers.Drop(upstream: Just(1), count: 2))
    XCTAssertNotEqual(Publishers.Drop(upstream: Just(1), count: 2), Publishers.Drop(upstream: Just(1), count: 3))
  }

  func test_description() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    ScriptedUpstream<Int, Never>().dropFirst().subscribe(subscriber)
    XCTAssertEqual(String(describing: subscriber.subscription!), "Drop")
  }

  func test_releasesChain_onCancel() {
    let upstream = ScriptedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.dropFirst().subscribe(subscriber)
    var subscription = subscriber.subscription as AnyObject?
    subscriber.cancel()
    assertReleased(&subscription)
  }

  /// Apple's documentation example for `dropFirst(_:)`: "6 7 8 9 10 ".
  func test_appleExample_dropsFive() {
    var printed = ""
    let cancellable = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].publisher
      .dropFirst(5)
      .sink { print("\($0)", terminator: " ", to: &printed) }
    XCTAssertEqual(printed, "6 7 8 9 10 ")
    cancellable.cancel()
  }

  /// The book's `.dropFirst(3)`: the first three values never reach downstream.
  func test_bookExample_dropsThree() {
    let subscriber = TestSubscriber<String, Never>()
    ["a", "b", "c", "d", "e"].publisher.dropFirst(3).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, ["d", "e"])
  }
}
