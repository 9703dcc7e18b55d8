import Confluence
import ConfluenceTesting
import XCTest

final class TimeoutTests: XCTestCase {
  // Apple's documentation example: one value after 2 s, a 5 s timeout: the value, then
  // `.finished` 5 s after it.
  func test_appleExample_valueAfterTwoSeconds_thenFinishesFiveSecondsLater() {
    let scheduler = TestScheduler(initialClock: 0)
    let input: TestablePublisher<String, Never> = scheduler.createRelativeTestablePublisher([
      (VirtualTime(VirtualTimeInterval.seconds(2).ticks), .input("Some data - sent after a delay of 2 seconds"))
    ])
    let results = scheduler.start(subscribedAt: 0, cancelledAt: VirtualTime(VirtualTimeInterval.seconds(60).ticks)) {
      input.timeout(.seconds(5), scheduler: scheduler, options: nil, customError: nil)
    }
    XCTAssertEqual(
      results.recordedOutput,
      [
        (0, .subscription),
        (VirtualTime(VirtualTimeInterval.seconds(2).ticks), .input("Some data - sent after a delay of 2 seconds")),
        (VirtualTime(VirtualTimeInterval.seconds(7).ticks), .completion(.finished)),
      ])
  }

  func test_customError_failsAtTheInterval() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "a-b", values: ["a": 1, "b": 2], error: TestError())
    let results = scheduler.start { input.timeout(3, scheduler: scheduler) { TestError("timed out") } }
    XCTAssertEqual(results.recordedOutput.marbles(values: ["a": 1, "b": 2]), "a-b--#")
    XCTAssertEqual(results.recordedOutput.last?.signal, .completion(.failure(TestError("timed out"))))
  }

  func test_noValues_finishesAfterTheIntervalFromSubscription() {
    let scheduler = TestScheduler(initialClock: 0)
    let input: TestablePublisher<Int, Never> = scheduler.createRelativeTestablePublisher([])
    let results = scheduler.start { input.timeout(50, scheduler: scheduler) }
    XCTAssertEqual(results.recordedOutput, [(200, .subscription), (250, .completion(.finished))])
  }

  func test_valuesInTime_keepItAlive_andUpstreamCompletionPassesOnTheScheduler() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "a-b-c-|")
    let results = scheduler.start { input.timeout(3, scheduler: scheduler) }
    XCTAssertEqual(results.recordedOutput.marbles(), "a-b-c-|")
  }

  func test_timeout_cancelsUpstream() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.timeout(10, scheduler: scheduler).subscribe(subscriber)
    scheduler.advance(by: 10)
    XCTAssertEqual(upstream.cancels, 1)
    XCTAssertEqual(subscriber.events, [.subscription("Timeout"), .completion(.finished)])
  }

  func test_forwardsDemandSynchronously_andReturnedDemandAfterDelivery() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
    upstream.timeout(10, scheduler: scheduler).subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [.max(1)])
    upstream.send(1)
    scheduler.advance(by: 1)
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertEqual(upstream.requested, [.max(1), .max(2)])
  }

  func test_cancel_freesDownstreamAndCustomError() {
    let scheduler = VirtualTimeScheduler()
    let tracker = LifetimeTracker()
    let upstream = ManualPublisher<Int, TestError>()
    var subscriber: TestSubscriber<Int, TestError>? = TestSubscriber()
    do {
      let probe = tracker.make()
      upstream.timeout(10, scheduler: scheduler) { TestError("\(probe.id)") }.subscribe(subscriber!)
    }
    subscriber?.cancel()
    upstream.releaseSubscriber()
    XCTAssertEqual(upstream.cancels, 1)
    XCTAssertEqual(tracker.liveCount, 0)
    weak let weakSubscriber = subscriber
    subscriber = nil
    XCTAssertNil(weakSubscriber)
    scheduler.run()
  }
}
