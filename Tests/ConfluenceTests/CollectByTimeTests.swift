import Confluence
import ConfluenceTesting
import XCTest

final class CollectByTimeTests: XCTestCase {
  func test_byTime_publishesWhatEachIntervalGathered() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "ab-c-d---e|")
    let results = scheduler.start { input.collect(.byTime(scheduler, 4)) }
    XCTAssertEqual(
      results.recordedOutput,
      [
        (200, .subscription), (204, .input(["a", "b", "c"])), (208, .input(["d"])), (210, .input(["e"])),
        (210, .completion(.finished)),
      ])
  }

  // "Using Combine": `collect(.byTime(q, 1.0))` buffers the values of each second.
  func test_bookExample_byTimeOneSecond() {
    let scheduler = TestScheduler(initialClock: 0)
    let ticks: TestablePublisher<Int, Never> = scheduler.createRelativeTestablePublisher(
      TestSequence(
        (1...7).map { (time: VirtualTime(VirtualTimeInterval.milliseconds(300 * $0).ticks), signal: .input($0)) }))
    let subscriber = TestSubscriber<[Int], Never>()
    ticks.collect(.byTime(scheduler, .seconds(1.0))).subscribe(subscriber)
    scheduler.advance(by: .seconds(2))
    XCTAssertEqual(subscriber.values, [[1, 2, 3], [4, 5, 6]])
    scheduler.advance(by: .seconds(1))
    XCTAssertEqual(subscriber.values, [[1, 2, 3], [4, 5, 6], [7]])
    XCTAssertEqual(subscriber.subscriptionDescription, "CollectByTime")
  }

  func test_byTimeOrCount_publishesAFullBufferAtOnce() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "abc---d|")
    let results = scheduler.start { input.collect(.byTimeOrCount(scheduler, 4, 2)) }
    XCTAssertEqual(
      results.recordedOutput,
      [
        (200, .subscription), (201, .input(["a", "b"])), (204, .input(["c"])), (207, .input(["d"])),
        (207, .completion(.finished)),
      ])
  }

  func test_emptyInterval_publishesNothing() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "a-------")
    let results = scheduler.start(cancelledAt: 220) { input.collect(.byTime(scheduler, 2)) }
    XCTAssertEqual(results.recordedOutput, [(200, .subscription), (202, .input(["a"]))])
  }

  func test_failure_dropsTheBuffer() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "ab#", values: ["a": 1, "b": 2], error: TestError())
    let results = scheduler.start { input.collect(.byTime(scheduler, 10)) }
    XCTAssertEqual(results.recordedOutput, [(200, .subscription), (202, .completion(.failure(TestError())))])
    XCTAssertEqual(scheduler.pendingActionCount, 0)
  }

  func test_requestsUnlimited_andKeepsBufferingWithoutDemand() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<[Int], Never>(initialDemand: .none)
    upstream.collect(.byTime(scheduler, 5)).subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [.unlimited])
    upstream.send(1)
    scheduler.advance(by: 5)
    upstream.send(2)
    scheduler.advance(by: 5)
    XCTAssertEqual(subscriber.values, [])
    subscriber.request(.max(1))
    upstream.send(3)
    scheduler.advance(by: 5)
    XCTAssertEqual(subscriber.values, [[1, 2, 3]])
  }

  func test_byTimeOrCount_fullBufferWaitsForDemand() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<[Int], Never>(initialDemand: .none)
    upstream.collect(.byTimeOrCount(scheduler, 100, 2)).subscribe(subscriber)
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    XCTAssertEqual(subscriber.values, [])
    subscriber.request(.max(1))
    XCTAssertEqual(subscriber.values, [[1, 2]])
  }

  func test_cancel_cancelsTheTimer_andFreesTheBuffer() {
    let scheduler = VirtualTimeScheduler()
    let tracker = LifetimeTracker()
    let upstream = ManualPublisher<LifetimeTracker.Tracked, Never>()
    var subscriber: TestSubscriber<[LifetimeTracker.Tracked], Never>? = TestSubscriber()
    upstream.collect(.byTime(scheduler, 5), options: nil).subscribe(subscriber!)
    upstream.send(tracker.make())
    XCTAssertEqual(scheduler.pendingActionCount, 1)
    subscriber?.cancel()
    upstream.releaseSubscriber()
    XCTAssertEqual(scheduler.pendingActionCount, 0)
    XCTAssertEqual(upstream.cancels, 1)
    XCTAssertEqual(tracker.liveCount, 0)
    weak let weakSubscriber = subscriber
    subscriber = nil
    XCTAssertNil(weakSubscriber)
  }

  func test_cancelInsideTheLastBatch_getsNoCompletion() {
    // Upstream finishes with values buffered: the last batch goes out, and a subscriber that
    // cancels while receiving it hears nothing more.
    let scheduler = TestScheduler(initialClock: 0)
    let subscriber = TestSubscriber<[Int], Never>()
    subscriber.onValue = { [unowned subscriber] _ in
      subscriber.cancel()
      return .none
    }
    [1, 2].publisher.collect(.byTime(scheduler, 3)).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [[1, 2]])
    XCTAssertNil(subscriber.completion)
    XCTAssertEqual(subscriber.violations, [])
  }
}
