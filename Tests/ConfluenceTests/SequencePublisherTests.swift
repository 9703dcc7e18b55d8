import Confluence
import ConfluenceTesting
import XCTest

final class SequencePublisherTests: XCTestCase {
  func test_unlimitedDemand_deliversAllThenFinishes() {
    let subscriber = TestSubscriber<Int, Never>()
    (1...3).publisher.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events, [.subscription("1...3"), .value(1), .value(2), .value(3), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_noDemand_thenMaxOne_thenMore() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    [10, 20, 30, 40].publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("[10, 20, 30, 40]")])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [10])
    subscriber.request(.max(2))
    XCTAssertEqual(subscriber.values, [10, 20, 30])
    XCTAssertNil(subscriber.completion)
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [10, 20, 30, 40])
    XCTAssertEqual(subscriber.completion, .finished, "finishes as soon as the last element went out")
    XCTAssertEqual(subscriber.demands, [.max(1), .max(2), .max(1)])
  }

  func test_demandReturnedFromReceive_isHonoured() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    (1...5).publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2, 3, 4, 5])
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(subscriber.demands, [.max(1), .max(1), .max(1), .max(1), .max(1), .max(1)])
  }

  func test_reentrantRequestFromReceive_doesNotRecurse() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    var depth = 0
    var maxDepth = 0
    subscriber.onValue = { _ in
      depth += 1
      maxDepth = max(maxDepth, depth)
      subscriber.request(.max(1))
      depth -= 1
      return .none
    }
    (1...100).publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, Array(1...100))
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(maxDepth, 1, "requests from inside receive are queued, not recursed into")
  }

  func test_emptySequence_finishesImmediatelyWithEmptySubscription() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    [Int]().publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("Empty"), .completion(.finished)])
  }

  func test_cancelInsideReceive_stopsDelivery() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { value in
      if value == 2 { subscriber.cancel() }
      return .none
    }
    (1...10).publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("1...10"), .value(1), .value(2)])
  }

  func test_cancelBeforeDemand_deliversNothing() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    (1...3).publisher.subscribe(subscriber)
    subscriber.cancel()
    XCTAssertEqual(subscriber.events, [.subscription("1...3")])
  }

  func test_failureTypeCanBeChosen() {
    let publisher = Publishers.Sequence<[Int], TestError>(sequence: [1, 2])
    let subscriber = TestSubscriber<Int, TestError>()
    publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("[1, 2]"), .value(1), .value(2), .completion(.finished)])
  }

  func test_cancel_releasesDownstreamAndIterator() {
    let tracker = LifetimeTracker()
    let subscriber = TestSubscriber<LifetimeTracker.Tracked, Never>(initialDemand: .max(1))
    [tracker.make(), tracker.make()].publisher.subscribe(subscriber)
    XCTAssertEqual(subscriber.values.count, 1)
    var subscription = subscriber.subscription as AnyObject?
    subscriber.cancel()
    assertReleased(&subscription)
    XCTAssertEqual(tracker.liveCount, 1, "only the delivered element, held by the subscriber's history")
  }

  func test_completion_releasesSubscription() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    (1...2).publisher.subscribe(subscriber)
    weak let subscription = subscriber.subscription as AnyObject?
    subscriber.request(.unlimited)
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertNil(subscription)
  }

  func test_lazySequence_isIteratedOnDemandOnly() {
    var produced = 0
    let numbers = (1...1_000).lazy.map { value -> Int in
      produced += 1
      return value
    }
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
    Publishers.Sequence<LazyMapSequence<ClosedRange<Int>, Int>, Never>(sequence: numbers).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2, 3])
    XCTAssertEqual(produced, 4, "three delivered plus one looked ahead to detect the end")
  }

  // MARK: Apple's edges

  func test_requestNone_isIgnored() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    [1, 2].publisher.subscribe(subscriber)
    subscriber.subscription?.request(.none)
    XCTAssertEqual(subscriber.values, [])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [1])
  }

  func test_description_isTheSequence_thenSequenceOnceFinished() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    (1...2).publisher.subscribe(subscriber)
    let subscription = subscriber.subscription
    XCTAssertEqual(subscription.map { String(describing: $0) }, "1...2")
    subscriber.request(.unlimited)
    XCTAssertEqual(subscription.map { String(describing: $0) }, "Sequence")
  }

  func test_mirror_showsTheSequence_thenAnEmptyArrayOnceCancelled() throws {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    (1...2).publisher.subscribe(subscriber)
    let subscription = try XCTUnwrap(subscriber.subscription)
    var children = Mirror(reflecting: subscription).children.map { ($0.label, String(describing: $0.value)) }
    XCTAssertEqual(children.map(\.0), ["sequence"])
    XCTAssertEqual(children.first?.1, "1...2")
    subscription.cancel()
    XCTAssertEqual(String(describing: subscription), "Sequence")
    children = Mirror(reflecting: subscription).children.map { ($0.label, String(describing: $0.value)) }
    XCTAssertEqual(children.first?.1, "[]")
  }

  func test_cancel_releasesTheSequence() {
    let tracker = LifetimeTracker()
    let subscriber = TestSubscriber<LifetimeTracker.Tracked, Never>(initialDemand: .none)
    do {
      [tracker.make(), tracker.make()].publisher.subscribe(subscriber)
    }
    XCTAssertEqual(tracker.liveCount, 2)
    subscriber.cancel()
    XCTAssertEqual(tracker.liveCount, 0)
  }
}
