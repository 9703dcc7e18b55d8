import Confluence
import ConfluenceTesting
import XCTest

final class ReceiveOnTests: XCTestCase {
  func test_deliversValuesAndCompletion_onTheScheduler_inOrder() {
    let scheduler = VirtualTimeScheduler()
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2, 3].publisher.receive(on: scheduler).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("ReceiveOn")])
    scheduler.advance(by: 0)
    XCTAssertEqual(
      subscriber.events, [.subscription("ReceiveOn"), .value(1), .value(2), .value(3), .completion(.finished)])
  }

  func test_forwardsDemandSynchronously() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
    upstream.receive(on: scheduler).subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [.max(2)])
    subscriber.request(.max(3))
    XCTAssertEqual(upstream.requested, [.max(2), .max(3)])
    XCTAssertEqual(scheduler.executedActionCount, 0)
  }

  func test_demandReturnedByDownstream_isRequestedAfterDelivery() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    upstream.receive(on: scheduler).subscribe(subscriber)
    upstream.send(1)
    XCTAssertEqual(upstream.requested, [.max(1)])
    scheduler.advance(by: 0)
    XCTAssertEqual(subscriber.values, [1])
    XCTAssertEqual(upstream.requested, [.max(1), .max(1)])
  }

  func test_noDemand_thenMaxOne_thenMore() {
    let scheduler = VirtualTimeScheduler()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    (1...5).publisher.receive(on: scheduler).subscribe(subscriber)
    scheduler.advance(by: 1)
    XCTAssertEqual(subscriber.values, [])
    subscriber.request(.max(1))
    scheduler.advance(by: 1)
    XCTAssertEqual(subscriber.values, [1])
    subscriber.request(.max(10))
    scheduler.advance(by: 1)
    XCTAssertEqual(subscriber.values, [1, 2, 3, 4, 5])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_failure_isDeliveredOnTheScheduler_afterQueuedValues() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.receive(on: scheduler).subscribe(subscriber)
    upstream.send(1)
    upstream.fail(TestError("late"))
    XCTAssertEqual(subscriber.values, [])
    scheduler.advance(by: 0)
    XCTAssertEqual(
      subscriber.events, [.subscription("ReceiveOn"), .value(1), .completion(.failure(TestError("late")))])
  }

  func test_timings_followTheUpstream() {
    let scheduler = TestScheduler(initialClock: 0)
    let input: TestablePublisher<String, Never> = scheduler.createRelativeTestablePublisher([
      (10, .input("a")), (20, .input("b")), (30, .completion(.finished)),
    ])
    let results = scheduler.start { input.receive(on: scheduler) }
    XCTAssertEqual(
      results.recordedOutput,
      [(200, .subscription), (210, .input("a")), (220, .input("b")), (230, .completion(.finished))])
  }

  // Apple: cancel drops the queued values; a completion already scheduled is still delivered.
  func test_cancel_dropsQueuedValues_butNotAScheduledCompletion() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(strictCancellation: false)
    upstream.receive(on: scheduler).subscribe(subscriber)
    upstream.send(1)
    upstream.send(2)
    subscriber.cancel()
    XCTAssertEqual(upstream.cancels, 1)
    scheduler.run()
    XCTAssertEqual(subscriber.events, [.subscription("ReceiveOn")])
  }

  func test_cancelInsideReceive_stopsFurtherValues_theScheduledCompletionStillArrives() {
    let scheduler = VirtualTimeScheduler()
    let subscriber = TestSubscriber<Int, Never>(strictCancellation: false)
    subscriber.onValue = { _ in
      subscriber.cancel(); return .none
    }
    (1...3).publisher.receive(on: scheduler).subscribe(subscriber)
    scheduler.run()
    XCTAssertEqual(subscriber.events, [.subscription("ReceiveOn"), .value(1), .completion(.finished)])
  }

  // Apple: the queued action holds the subscriber until it has run; the value is dropped.
  func test_cancel_withWorkQueued_freesDownstreamOnceTheActionRan() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    var subscriber: TestSubscriber<Int, Never>? = TestSubscriber()
    upstream.receive(on: scheduler).subscribe(subscriber!)
    upstream.send(1)
    subscriber?.cancel()
    upstream.releaseSubscriber()
    weak let weakSubscriber = subscriber
    subscriber = nil
    XCTAssertNotNil(weakSubscriber)
    scheduler.run()
    XCTAssertNil(weakSubscriber)
  }

  func test_completion_freesTheChain() {
    let scheduler = VirtualTimeScheduler()
    let subscriber = TestSubscriber<Int, Never>()
    Just(1).receive(on: scheduler).subscribe(subscriber)
    var subscription = subscriber.subscription as AnyObject?
    scheduler.run()
    XCTAssertEqual(subscriber.values, [1])
    assertReleased(&subscription)
  }

  func test_options_arePassedToTheScheduler() {
    let scheduler = TestScheduler<VirtualTime, String>(now: 0)
    let subscriber = TestSubscriber<Int, Never>()
    Just(1).receive(on: scheduler, options: "main").subscribe(subscriber)
    scheduler.run()
    XCTAssertEqual(scheduler.scheduledOptions, ["main", "main"])
    XCTAssertEqual(subscriber.values, [1])
  }

  func test_immediateScheduler_deliversAtOnce() {
    let subscriber = TestSubscriber<Int, Never>()
    [1, 2].publisher.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
    XCTAssertEqual(subscriber.events, [.subscription("ReceiveOn"), .value(1), .value(2), .completion(.finished)])
  }
}
