import Confluence
import ConfluenceTesting
import XCTest

final class OptionalPublisherTests: XCTestCase {
  func test_deliversValueThenFinishes_unlimitedDemand() {
    let subscriber = TestSubscriber<Int, Never>()
    Optional(1).publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Optional"), .value(1), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_finishesAtOnce_nil() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Int?.none.publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.finished)])
  }

  func test_waitsForDemand_noneThenMaxOneThenMore() {
    let subscriber = TestSubscriber<String, Never>(initialDemand: .none)
    Optional("a").publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Optional")])
    let subscription = subscriber.subscription
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("Optional"), .value("a"), .completion(.finished)])
    subscription?.request(.max(3))
    XCTAssertEqual(subscriber.events, [.subscription("Optional"), .value("a"), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.max(1)])
  }

  func test_cancelBeforeDemand_sendsNothing() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Optional(1).publisher.subscribe(subscriber)
    subscriber.cancel()
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("Optional")])
  }

  func test_cancelInsideReceive_deliversOneValue() {
    let subscriber = TestSubscriber<Int, Never>(strictCancellation: false)
    subscriber.onValue = { _ in
      subscriber.cancel()
      return .none
    }
    Optional(1).publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertEqual(subscriber.violations, [])
  }

  func test_initializer_andOutput() {
    XCTAssertEqual(Optional<Int>.Publisher(3).output, 3)
    XCTAssertNil(Optional<Int>.Publisher(nil).output)
    XCTAssertEqual(Optional(4).publisher.output, 4)
  }

  func test_replaysToEverySubscriber() {
    let publisher = Optional(9).publisher
    let first = TestSubscriber<Int, Never>()
    let second = TestSubscriber<Int, Never>()
    publisher.subscribe(first)
    publisher.subscribe(second)
    XCTAssertEqual(first.values, [9])
    XCTAssertEqual(second.values, [9])
  }

  func test_equatable() {
    XCTAssertEqual(Optional(1).publisher, Optional(1).publisher)
    XCTAssertNotEqual(Optional(1).publisher, Optional(2).publisher)
    XCTAssertNotEqual(Optional(1).publisher, Int?.none.publisher)
  }

  func test_cancel_releasesValueAndSubscriber() {
    let tracker = LifetimeTracker()
    var subscription: Subscription?
    do {
      let probe = tracker.make()
      let publisher = Optional(probe).publisher
      publisher.subscribe(
        AnySubscriber<LifetimeTracker.Tracked, Never>(
          receiveSubscription: { [probe] in
            _ = probe
            subscription = $0
          }))
    }
    XCTAssertEqual(tracker.liveCount, 1, "the value and the subscriber, held by the subscription")
    subscription?.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
    XCTAssertNotNil(subscription)
  }

  func test_appleExample_printsValueThenCompletion() {
    var lines: [String] = []
    let optional1: Int? = 1
    let cancellable = optional1.publisher
      .sink(
        receiveCompletion: { _ in lines.append("optional1 completed.") },
        receiveValue: { lines.append("optional1 = \($0)") })
    XCTAssertEqual(lines, ["optional1 = 1", "optional1 completed."])
    cancellable.cancel()
  }
}
