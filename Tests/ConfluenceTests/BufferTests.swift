import Foundation
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

  // As Apple's: .byRequest asks upstream for everything at once; the downstream's requests
  // are served from the buffer.
  func test_byRequest_asksForUnlimited_andServesRequestsFromTheBuffer() {
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2))
    upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [.unlimited])
    subscriber.request(.max(5))
    XCTAssertEqual(upstream.requested, [.unlimited])
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

  // As Apple's: the overflow cancels upstream at once; the error follows the values the
  // downstream asks for next.
  func test_customError_cancelsUpstreamWhenFull_andFailsAfterTheNextValuesAskedFor() {
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .customError { TestError("full") }).subscribe(subscriber)
    (1...3).forEach(upstream.send)
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Buffer)"])
    XCTAssertEqual(upstream.cancels, 1)
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.eventDescriptions, ["subscription(Buffer)", "value(1)", "completion(failure(full))"])
  }

  // As Apple's: `finished` waits for the buffer and for demand; a failure goes at once.
  func test_finishedWaitsForBufferedElementsAndDemand_aFailureDoesNot() {
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
    upstream.send(1)
    upstream.send(2)
    upstream.finish()
    XCTAssertNil(subscriber.completion)
    subscriber.request(.max(2))
    XCTAssertNil(subscriber.completion, "the buffer is empty but no demand is left")
    subscriber.request(.max(1))
    XCTAssertEqual(
      subscriber.eventDescriptions, ["subscription(Buffer)", "value(1)", "value(2)", "completion(finished)"])

    let failing = ManualPublisher<Int, TestError>()
    let second = TestSubscriber<Int, TestError>(initialDemand: .none)
    failing.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(second)
    failing.send(1)
    failing.fail(TestError("late"))
    XCTAssertEqual(second.eventDescriptions, ["subscription(Buffer)", "completion(failure(late))"])
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
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    upstream.buffer(size: 4, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
    upstream.send(tracker.make())
    upstream.send(tracker.make())
    XCTAssertEqual(subscriber.values.count, 1)
    XCTAssertEqual(upstream.cancels, 1)
    XCTAssertEqual(tracker.liveCount, 1, "only the delivered one, kept by the subscriber's history")
  }

  // MARK: Apple's edges

  func test_upstreamIsAskedBeforeTheDownstreamHoldsTheSubscription_andMirror() {
    let upstream = DetachedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    var eventsAtRequest: [String]?
    upstream.buffer(size: 4, prefetch: .keepFull, whenFull: .dropOldest).subscribe(subscriber)
    let subscription = RecordingSubscription()
    subscription.onRequest = { _ in eventsAtRequest = subscriber.eventDescriptions }
    upstream.attach(subscription)
    XCTAssertEqual(eventsAtRequest, [])
    XCTAssertEqual(subscription.events, [.requested(.max(4))])
    XCTAssertEqual(
      Mirror(reflecting: subscriber.subscription!).children.map(\.label),
      ["values", "state", "downstreamDemand", "terminal"])
  }

  func test_cancelBeforeTheSubscription_isForgotten() {
    let upstream = DetachedUpstream<Int, Never>()
    upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).subscribe(TestSubscriber<Int, Never>())
    upstream.operatorSubscription?.cancel()
    XCTAssertEqual(upstream.attach().events, [.requested(.unlimited)])
  }

  /// Found by the generated pipelines (seed 3280): after delivering the overflow error, the
  /// buffer kept the cancelled upstream subscription; `append` keeps its downstream (as
  /// Apple's `Concatenate`), so the two — and everything downstream — were never freed.
  func test_overflowError_releasesTheCancelledUpstream_onceDelivered() {
    weak var weakSubscriber: TestSubscriber<Int, TestError>?
    do {
      let subscriber = TestSubscriber<Int, TestError>()
      weakSubscriber = subscriber
      [17, 5].publisher.setFailureType(to: TestError.self).append(Fail(error: TestError("upstream")))
        .buffer(size: 1, prefetch: .byRequest, whenFull: .customError { TestError("full") })
        .reduce(0, +)
        .subscribe(subscriber)
      XCTAssertEqual(subscriber.completion, .failure(TestError("full")))
    }
    XCTAssertNil(weakSubscriber, "the chain is freed after the failure")
  }

  /// A failure sent while a request's drain delivers a value on another thread is delivered
  /// by that drain, after the value: not beside it (two events at once), and no buffered
  /// value after it. (`ThreadedPipelineStressTests` found it, seeds 218075 and 220736.)
  func test_failureWhileAnotherThreadDrains_isDeliveredAfterTheValue_andDropsTheRest() {
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    subscriber.onValue = { value in
      if value == 1 {
        entered.signal()
        proceed.wait()
      }
      return .none
    }
    subject.buffer(size: 10, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
    for value in 1...3 { subject.send(value) }
    let drained = DispatchSemaphore(value: 0)
    let requester = Thread {
      subscriber.request(.max(3))
      drained.signal()
    }
    requester.start()
    entered.wait()
    subject.send(completion: .failure(TestError("late")))
    XCTAssertEqual(subscriber.events.count, 2, "the failure waits for the value being delivered")
    proceed.signal()
    drained.wait()
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertEqual(subscriber.completion, .failure(TestError("late")))
    XCTAssertEqual(subscriber.events.count, 3)
  }
}
