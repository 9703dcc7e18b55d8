import Confluence
import ConfluenceTesting
import XCTest

final class CollectByCountTests: XCTestCase {
  func test_appleExample_groupsOfFive() {
    let subscriber = TestSubscriber<[Int], Never>()
    (0...10).publisher.collect(5).subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events,
      [
        .subscription("CollectByCount"), .value([0, 1, 2, 3, 4]), .value([5, 6, 7, 8, 9]), .value([10]),
        .completion(.finished),
      ])
    XCTAssertEqual(subscriber.demands, [.unlimited])
  }

  func test_bookExample_collect3() {
    // "Using Combine", reference chapter: .collect(3) buffers up to three, and sends what is left on finish.
    let subscriber = TestSubscriber<[String], Never>()
    ["a", "b", "c", "d"].publisher.collect(3).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [["a", "b", "c"], ["d"]])
  }

  func test_demandIsMultipliedByCount_max1ThenMore() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .max(1))
    upstream.collect(2).subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [.max(2)])
    XCTAssertEqual(upstream.send(1), .none)
    XCTAssertEqual(upstream.send(2), .none)
    subscriber.request(.max(3))
    XCTAssertEqual(upstream.requests, [.max(2), .max(6)])
    XCTAssertEqual(subscriber.values, [[1, 2]])
  }

  func test_demandReturnedFromReceive_isMultiplied() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .max(1), demandPerValue: .max(1))
    upstream.collect(3).subscribe(subscriber)
    upstream.send(1)
    upstream.send(2)
    XCTAssertEqual(upstream.send(3), .max(3))
  }

  func test_noDemand_requestsNothing() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .none)
    upstream.collect(2).subscribe(subscriber)
    XCTAssertEqual(upstream.requests, [])
  }

  func test_exactMultiple_noEmptyTail() {
    let subscriber = TestSubscriber<[Int], Never>()
    [1, 2].publisher.collect(2).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("CollectByCount"), .value([1, 2]), .completion(.finished)])
  }

  func test_upstreamFailure_dropsPartialBuffer() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let subscriber = TestSubscriber<[Int], TestError>()
    upstream.collect(2).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(subscriber.events, [.subscription("CollectByCount"), .completion(.failure(TestError()))])
  }

  func test_cancel_beforeAndInsideReceive() {
    let upstream = ScriptedPublisher<Int, TestError>()
    let cancelled = TestSubscriber<[Int], TestError>()
    upstream.collect(2).subscribe(cancelled)
    upstream.send(1)
    cancelled.cancel()
    XCTAssertEqual(upstream.cancelCount, 1)
    upstream.send(completion: .finished)
    XCTAssertEqual(cancelled.events, [.subscription("CollectByCount")])

    let inside = TestSubscriber<[Int], Never>()
    inside.onValue = { _ in
      inside.cancel()
      return .none
    }
    [1, 2, 3, 4].publisher.collect(2).subscribe(inside)
    XCTAssertEqual(inside.events, [.subscription("CollectByCount"), .value([1, 2])])
  }

  func test_equatable() {
    XCTAssertEqual(
      Publishers.CollectByCount(upstream: Just(1), count: 2), Publishers.CollectByCount(upstream: Just(1), count: 2))
    XCTAssertNotEqual(
      Publishers.CollectByCount(upstream: Just(1), count: 2), Publishers.CollectByCount(upstream: Just(1), count: 3))
  }

  // MARK: Apple's edges

  func test_everyCompletionPasses_valuesAfterTheFirstDoNot_mirror() {
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<[Int], TestError>()
    subscriber.onViolation = { _ in }
    upstream.collect(2).subscribe(subscriber)
    upstream.attach()
    _ = upstream.send(1)
    XCTAssertEqual(
      Mirror(reflecting: subscriber.subscription!).children.map(\.label),
      ["downstream", "upstreamSubscription", "buffer", "count"])
    upstream.send(completion: .finished)
    XCTAssertEqual(upstream.send(2), .none)
    upstream.send(completion: .failure(TestError("x")))
    XCTAssertEqual(
      subscriber.eventDescriptions,
      ["subscription(CollectByCount)", "value([1])", "completion(finished)", "completion(failure(x))"])
  }

  func test_completionAfterCancel_passesWithoutThePartialGroup() {
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<[Int], TestError>(strictCancellation: false)
    upstream.collect(3).subscribe(subscriber)
    upstream.attach()
    _ = upstream.send(1)
    subscriber.cancel()
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(CollectByCount)", "completion(finished)"])
  }
}
