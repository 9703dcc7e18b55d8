import Confluence
import ConfluenceTesting
import XCTest

final class BufferTests: XCTestCase {
  func test_keepFull_requestsSizeThenOneMorePerDelivery() {
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [.max(3)])
    upstream.send(1)
    upstream.send(2)
    XCTAssertEqual(subscriber.values, [])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertEqual(upstream.requested, [.max(3), .max(1)])
    XCTAssertEqual(subscriber.subscriptionDescription, "Buffer")
  }

  func test_byRequest_forwardsDownstreamRequests() {
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2))
    upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [.max(2)])
    subscriber.request(.max(5))
    XCTAssertEqual(upstream.requested, [.max(2), .max(5)])
  }

  func test_dropNewest_keepsTheFirstElements() {
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
    (1...5).forEach(upstream.send)
    subscriber.request(.unlimited)
    XCTAssertEqual(subscriber.values, [1, 2])
  }

  func test_dropOldest_keepsTheLatestElements() {
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
    (1...5).forEach(upstream.send)
    subscriber.request(.unlimited)
    XCTAssertEqual(subscriber.values, [4, 5])
  }

  func test_customError_failsWhenFull_andCancelsUpstream() {
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .customError { TestError("full") }).subscribe(subscriber)
    (1...3).forEach(upstream.send)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Buffer)", "completion(failure(full))"])
    XCTAssertEqual(upstream.cancels, 1)
  }

  func test_completionWaitsForBufferedElements() {
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
    upstream.send(1)
    upstream.send(2)
    upstream.fail(TestError("late"))
    XCTAssertNil(subscriber.completion)
    subscriber.request(.max(1))
    XCTAssertNil(subscriber.completion)
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Buffer)", "value(1)", "value(2)", "completion(failure(late))"])
    XCTAssertEqual(upstream.requested, [.max(5)], "no replenishing after upstream completed")
  }

  func test_synchronousUpstream_keepFull() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    (1...10).publisher.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2])
    subscriber.request(.unlimited)
    XCTAssertEqual(subscriber.values, Array(1...10))
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_cancelInsideReceive_andRelease() {
    let tracker = LifetimeTracker()
    let upstream = ManualPublisher<LifetimeTracker.Tracked, TestError>()
    let subscriber = TestSubscriber<LifetimeTracker.Tracked, TestError>(initialDemand: .max(1))
    subscriber.onValue = { _ in subscriber.cancel(); return .none }
    upstream.buffer(size: 4, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
    upstream.send(tracker.make())
    upstream.send(tracker.make())
    XCTAssertEqual(subscriber.values.count, 1)
    XCTAssertEqual(upstream.cancels, 1)
    XCTAssertEqual(tracker.liveCount, 1, "only the delivered one, kept by the subscriber's history")
  }
}
