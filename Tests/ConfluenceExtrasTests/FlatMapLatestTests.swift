import Confluence
import ConfluenceExtras
import ConfluenceTesting
import XCTest

final class FlatMapLatestTests: XCTestCase {
  private typealias Source = ManualPublisher<Int, TestError>

  /// Records the inner publisher made for each upstream value.
  private final class Inners {
    var made: [Int: Source] = [:]
    func make(_ value: Int) -> Source {
      let inner = Source()
      made[value] = inner
      return inner
    }
  }

  func test_republishesOnlyTheLatestInner_andCancelsThePreviousOne() {
    let upstream = Source()
    let inners = Inners()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.flatMapLatest(inners.make).subscribe(subscriber)

    upstream.send(1)
    inners.made[1]?.send(10)
    upstream.send(2)
    XCTAssertEqual(inners.made[1]?.isCancelled, true)
    XCTAssertFalse(inners.made[1]?.send(11) ?? true)
    inners.made[2]?.send(20)

    XCTAssertEqual(subscriber.events, [.subscription("SwitchToLatest"), .value(10), .value(20)])
    XCTAssertEqual(upstream.demands, [.unlimited])
  }

  func test_carriesUnusedDemandToTheNextInner() {
    let upstream = Source()
    let inners = Inners()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3))
    upstream.flatMapLatest(inners.make).subscribe(subscriber)
    upstream.send(1)
    inners.made[1]?.send(10)
    upstream.send(2)
    XCTAssertTrue(inners.made[2]?.send(20) ?? false)
    XCTAssertTrue(inners.made[2]?.send(21) ?? false)
    XCTAssertFalse(inners.made[2]?.send(22) ?? true, "three units of demand in all")
    XCTAssertEqual(subscriber.values, [10, 20, 21])
  }

  func test_honoursNoneThenOneThenMoreThenUnlimited() {
    let upstream = Source()
    let inners = Inners()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.flatMapLatest(inners.make).subscribe(subscriber)
    upstream.send(1)
    let inner = inners.made[1]!
    XCTAssertFalse(inner.send(1))
    subscriber.request(.max(1))
    XCTAssertTrue(inner.send(1))
    XCTAssertFalse(inner.send(2))
    subscriber.request(.max(2))
    XCTAssertTrue(inner.send(2))
    XCTAssertTrue(inner.send(3))
    subscriber.request(.unlimited)
    for value in 4...6 { XCTAssertTrue(inner.send(value)) }
    XCTAssertEqual(subscriber.values, [1, 2, 3, 4, 5, 6])
  }

  func test_finishesWhenUpstreamAndCurrentInnerFinish() {
    let upstream = Source()
    let inners = Inners()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.flatMapLatest(inners.make).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .finished)
    XCTAssertNil(subscriber.completion)
    inners.made[1]?.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("SwitchToLatest"), .completion(.finished)])
  }

  func test_failsWhenUpstreamFails() {
    let upstream = Source()
    let inners = Inners()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.flatMapLatest(inners.make).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError("up")))
    XCTAssertEqual(subscriber.completion, .failure(TestError("up")))
    XCTAssertEqual(inners.made[1]?.isCancelled, true)
  }

  func test_failsWhenTheInnerFails() {
    let upstream = Source()
    let inners = Inners()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.flatMapLatest(inners.make).subscribe(subscriber)
    upstream.send(1)
    inners.made[1]?.send(completion: .failure(TestError("inner")))
    XCTAssertEqual(subscriber.completion, .failure(TestError("inner")))
    XCTAssertTrue(upstream.isCancelled)
  }

  func test_cancelInsideReceive_cancelsUpstreamAndInner() {
    let upstream = Source()
    let inners = Inners()
    let subscriber = TestSubscriber<Int, TestError>()
    subscriber.onValue = { [unowned subscriber] _ in
      subscriber.cancel()
      return .none
    }
    upstream.flatMapLatest(inners.make).subscribe(subscriber)
    upstream.send(1)
    inners.made[1]?.send(1)
    inners.made[1]?.send(2)
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertTrue(upstream.isCancelled)
    XCTAssertEqual(inners.made[1]?.isCancelled, true)
  }

  func test_lifetime_cancelFreesTheSubscriptionAndTransform() {
    let tracker = LifetimeTracker()
    let upstream = Source()
    let inners = Inners()
    let subscriber = TestSubscriber<Int, TestError>()
    do {
      let probe = tracker.make()
      upstream.flatMapLatest { value in withExtendedLifetime(probe) { inners.make(value) } }.subscribe(subscriber)
    }
    upstream.send(1)
    weak let subscription = subscriber.subscription as AnyObject?
    subscriber.cancel()
    XCTAssertNil(subscription)
    XCTAssertEqual(tracker.liveCount, 0)
    XCTAssertEqual(inners.made[1]?.hasSubscriber, false)
  }

  func test_lifetime_failureFreesTheSubscriptionAndTransform() {
    let tracker = LifetimeTracker()
    let upstream = Source()
    let inners = Inners()
    let subscriber = TestSubscriber<Int, TestError>()
    do {
      let probe = tracker.make()
      upstream.flatMapLatest { value in withExtendedLifetime(probe) { inners.make(value) } }.subscribe(subscriber)
    }
    upstream.send(1)
    weak let subscription = subscriber.subscription as AnyObject?
    inners.made[1]?.send(completion: .failure(TestError("inner")))
    XCTAssertNil(subscription)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  // MARK: Failure types

  func test_neverFailingUpstream_withFailingInner() {
    let inner = Source()
    let subscriber = TestSubscriber<Int, TestError>()
    Just(1).flatMapLatest { _ in inner }.subscribe(subscriber)
    inner.send(5)
    inner.send(completion: .failure(TestError("inner")))
    XCTAssertEqual(
      subscriber.events, [.subscription("SwitchToLatest"), .value(5), .completion(.failure(TestError("inner")))])
  }

  func test_failingUpstream_withNeverFailingInner() {
    let upstream = Source()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.flatMapLatest { Just($0 * 2) }.subscribe(subscriber)
    upstream.send(4)
    upstream.send(completion: .failure(TestError("up")))
    XCTAssertEqual(
      subscriber.events, [.subscription("SwitchToLatest"), .value(8), .completion(.failure(TestError("up")))])
  }

  func test_neitherFails() {
    let subscriber = TestSubscriber<Int, Never>()
    Just(3).flatMapLatest { Just($0 + 1) }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("SwitchToLatest"), .value(4), .completion(.finished)])
  }
}
