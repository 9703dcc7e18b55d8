import Confluence
import ConfluenceExtras
import ConfluenceTesting
import XCTest

final class ConcatMapTests: XCTestCase {
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

  func test_publishesInnerValuesInUpstreamOrder_forSynchronousInners() {
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2, 3].publisher.concatMap { [$0, $0 * 10].publisher }.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events,
      [
        .subscription("FlatMap"), .value(1), .value(10), .value(2), .value(20), .value(3), .value(30),
        .completion(.finished),
      ])
  }

  func test_subscribesNextInner_onlyAfterThePreviousFinishes() {
    let upstream = Source()
    let inners = Inners()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.concatMap(inners.make).subscribe(subscriber)

    XCTAssertEqual(upstream.demands, [.max(1)])
    upstream.send(1)
    XCTAssertFalse(upstream.send(2), "upstream is asked for the next value only when the inner one finishes")
    XCTAssertNil(inners.made[2])

    inners.made[1]?.send(11)
    inners.made[1]?.send(12)
    inners.made[1]?.send(completion: .finished)
    XCTAssertEqual(upstream.demands, [.max(1), .max(1)])
    XCTAssertTrue(upstream.send(2))
    inners.made[2]?.send(21)

    XCTAssertEqual(subscriber.values, [11, 12, 21])
  }

  func test_finishesAfterUpstreamAndTheLastInnerFinish() {
    let upstream = Source()
    let inners = Inners()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.concatMap(inners.make).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .finished)
    XCTAssertNil(subscriber.completion, "the inner publisher is still running")
    inners.made[1]?.send(5)
    inners.made[1]?.send(completion: .finished)
    XCTAssertEqual(subscriber.events, [.subscription("FlatMap"), .value(5), .completion(.finished)])
  }

  func test_honoursFiniteDownstreamDemand() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    [1, 2].publisher.concatMap { [$0, $0 * 10].publisher }.subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [1])
    subscriber.request(.max(2))
    XCTAssertEqual(subscriber.values, [1, 10, 2])
    subscriber.request(.unlimited)
    XCTAssertEqual(subscriber.values, [1, 10, 2, 20])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_failsWhenUpstreamFails_andCancelsTheInner() {
    let upstream = Source()
    let inners = Inners()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.concatMap(inners.make).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError("up")))
    XCTAssertEqual(subscriber.events, [.subscription("FlatMap"), .completion(.failure(TestError("up")))])
    XCTAssertEqual(inners.made[1]?.isCancelled, true)
  }

  func test_failsWhenAnInnerFails_releasingUpstreamWithoutCancel_asAppleFlatMap() {
    let upstream = Source()
    let inners = Inners()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.concatMap(inners.make).subscribe(subscriber)
    upstream.send(1)
    inners.made[1]?.send(completion: .failure(TestError("inner")))
    XCTAssertEqual(subscriber.events, [.subscription("FlatMap"), .completion(.failure(TestError("inner")))])
    XCTAssertFalse(upstream.isCancelled)
  }

  func test_cancelInsideReceive_cancelsUpstreamAndInner() {
    let upstream = Source()
    let inners = Inners()
    let subscriber = TestSubscriber<Int, TestError>()
    subscriber.onValue = { [unowned subscriber] _ in
      subscriber.cancel()
      return .none
    }
    upstream.concatMap(inners.make).subscribe(subscriber)
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
      upstream.concatMap { value in withExtendedLifetime(probe) { inners.make(value) } }.subscribe(subscriber)
    }
    upstream.send(1)
    weak let subscription = subscriber.subscription as AnyObject?
    subscriber.cancel()
    XCTAssertNil(subscription)
    XCTAssertEqual(tracker.liveCount, 0)
    XCTAssertEqual(inners.made[1]?.hasSubscriber, false)
  }

  func test_lifetime_completionFreesTheSubscriptionAndTransform() {
    let tracker = LifetimeTracker()
    let upstream = Source()
    let inners = Inners()
    let subscriber = TestSubscriber<Int, TestError>()
    do {
      let probe = tracker.make()
      upstream.concatMap { value in withExtendedLifetime(probe) { inners.make(value) } }.subscribe(subscriber)
    }
    upstream.send(1)
    weak let subscription = subscriber.subscription as AnyObject?
    upstream.send(completion: .finished)
    inners.made[1]?.send(completion: .finished)
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertNil(subscription)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  // MARK: Failure types

  func test_neverFailingUpstream_withFailingInner() {
    let inner = Source()
    let subscriber = TestSubscriber<Int, TestError>()
    Just(1).concatMap { _ in inner }.subscribe(subscriber)
    inner.send(5)
    inner.send(completion: .failure(TestError("inner")))
    XCTAssertEqual(subscriber.events, [.subscription("FlatMap"), .value(5), .completion(.failure(TestError("inner")))])
  }

  func test_failingUpstream_withNeverFailingInner() {
    let upstream = Source()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.concatMap { Just($0 * 2) }.subscribe(subscriber)
    upstream.send(4)
    upstream.send(completion: .failure(TestError("up")))
    XCTAssertEqual(subscriber.events, [.subscription("FlatMap"), .value(8), .completion(.failure(TestError("up")))])
  }

  func test_neitherFails() {
    let subscriber = TestSubscriber<Int, Never>()
    Just(3).concatMap { Just($0 + 1) }.subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("FlatMap"), .value(4), .completion(.finished)])
  }
}
