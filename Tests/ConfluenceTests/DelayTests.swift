import Confluence
import ConfluenceTesting
import XCTest

final class DelayTests: XCTestCase {
  func test_delaysValuesAndCompletion_keepingTheirSpacing() {
    let scheduler = TestScheduler(initialClock: 0)
    let input: TestablePublisher<String, Never> = scheduler.createRelativeTestablePublisher([
      (10, .input("a")), (15, .input("b")), (20, .completion(.finished)),
    ])
    let results = scheduler.start { input.delay(for: 5, scheduler: scheduler) }
    XCTAssertEqual(
      results.recordedOutput,
      [(200, .subscription), (215, .input("a")), (220, .input("b")), (225, .completion(.finished))])
  }

  func test_marbles() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "-a-b|")
    let results = scheduler.start { input.delay(for: 2, scheduler: scheduler) }
    XCTAssertEqual(results.recordedOutput.marbles(), "---a-b|")
  }

  // "Using Combine": `.delay(for: 2.0, scheduler: headingBackgroundQueue)`.
  func test_bookExample_twoSeconds() {
    let scheduler = TestScheduler(initialClock: 0)
    let subscriber = TestSubscriber<Int, Never>()
    Just(1).delay(for: .seconds(2.0), scheduler: scheduler).subscribe(subscriber)
    scheduler.advance(by: .seconds(2) - 1)
    XCTAssertEqual(subscriber.values, [])
    XCTAssertNil(subscriber.completion)
    scheduler.advance(by: 1)
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_failure_isDelayedToo() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "a#", values: ["a": 1], error: TestError())
    let results = scheduler.start { input.delay(for: 3, scheduler: scheduler) }
    XCTAssertEqual(results.recordedOutput.marbles(values: ["a": 1]), "---a#")
  }

  func test_forwardsDemandSynchronously_andReturnedDemandAfterDelivery() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(1))
    upstream.delay(for: 10, scheduler: scheduler).subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [.max(2)])
    upstream.send(1)
    scheduler.advance(by: 10)
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertEqual(upstream.requested, [.max(2), .max(1)])
  }

  func test_noDemand_thenMaxOne() {
    let scheduler = VirtualTimeScheduler()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    (1...3).publisher.delay(for: 1, scheduler: scheduler).subscribe(subscriber)
    scheduler.run()
    XCTAssertEqual(subscriber.values, [])
    subscriber.request(.max(1))
    scheduler.run()
    XCTAssertEqual(subscriber.values, [1])
  }

  // Apple: a scheduled action holds the subscriber until it runs; the value is dropped
  // after cancel, the completion already scheduled is still delivered.
  func test_cancel_dropsPendingValues_keepsScheduledCompletion_holdsDownstreamUntilRun() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    var subscriber: TestSubscriber<Int, Never>? = TestSubscriber(strictCancellation: false)
    upstream.delay(for: 5, scheduler: scheduler).subscribe(subscriber!)
    upstream.send(1)
    upstream.finish()
    subscriber?.cancel()
    XCTAssertEqual(upstream.cancels, 1)
    upstream.releaseSubscriber()
    weak let weakSubscriber = subscriber
    subscriber = nil
    XCTAssertNotNil(weakSubscriber)
    XCTAssertEqual(weakSubscriber?.values, [])
    scheduler.run()
    XCTAssertNil(weakSubscriber)
  }

  func test_tolerance_defaultsToTheSchedulersMinimum_andOptionsArePassed() {
    let scheduler = TestScheduler<VirtualTime, String>(now: 0)
    let delayed = Just(1).delay(for: 4, scheduler: scheduler, options: "opt")
    XCTAssertEqual(delayed.tolerance, scheduler.minimumTolerance)
    let subscriber = TestSubscriber<Int, Never>()
    delayed.subscribe(subscriber)
    scheduler.run()
    XCTAssertEqual(scheduler.scheduledOptions, ["opt", "opt"])
    XCTAssertEqual(scheduler.now, 4)
  }
}
