import Confluence
import ConfluenceTesting
import XCTest

final class DebounceTests: XCTestCase {
  func test_emitsTheLastValue_afterAQuietPeriod() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "ab---c----d---|")
    let results = scheduler.start { input.debounce(for: 2, scheduler: scheduler) }
    XCTAssertEqual(results.recordedOutput.marbles(), "---b---c----d-|")
  }

  // Apple's documentation example: values sent at 0, 0.25, 1, 1.25, 1.5 and 2 seconds,
  // debounced by half a second; Apple prints 1, 4, 5. On a real clock value 5 lands a
  // little after the 2 s mark, after the quiet period of value 4 (1.5 s + 0.5 s) ended;
  // here it is sent one millisecond late to say the same thing on an exact clock.
  func test_appleExample_bounces() {
    let scheduler = TestScheduler(initialClock: 0)
    let bounces: [(Int, VirtualTimeInterval)] = [
      (0, .seconds(0)), (1, .seconds(0.25)), (2, .seconds(1)), (3, .seconds(1.25)), (4, .seconds(1.5)),
      (5, .seconds(2) + .milliseconds(1)),
    ]
    let input: TestablePublisher<Int, Never> = scheduler.createRelativeTestablePublisher(
      TestSequence(bounces.map { (time: VirtualTime($0.1.ticks), signal: .input($0.0)) }))
    let results = scheduler.start(subscribedAt: 0, cancelledAt: VirtualTime(VirtualTimeInterval.seconds(10).ticks)) {
      input.debounce(for: .seconds(0.5), scheduler: scheduler)
    }
    XCTAssertEqual(results.recordedOutput.inputs, [1, 4, 5])
    XCTAssertEqual(
      results.recordedOutput.dropFirst().map(\.time.ticks),
      [VirtualTimeInterval.milliseconds(750), .seconds(2), .milliseconds(2_501)].map(\.ticks))
  }

  func test_valueArrivingExactlyAsTheQuietPeriodEnds_restartsIt() {
    // Virtual time has exact ties: work scheduled earlier runs first, so the value wins.
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "a-b")
    let results = scheduler.start { input.debounce(for: 2, scheduler: scheduler) }
    XCTAssertEqual(results.recordedOutput.marbles(), "----b")
  }

  // The typing example: a burst of keystrokes yields only the final text.
  func test_typingBurst_yieldsTheFinalText() {
    let scheduler = TestScheduler(initialClock: 0)
    let typed: TestSequence<String, Never> = TestSequence(
      ["H", "He", "Hel", "Hell", "Hello"].enumerated().map {
        (time: VirtualTime(VirtualTimeInterval.milliseconds(100 * $0.offset).ticks), signal: .input($0.element))
      })
    let input = scheduler.createRelativeTestablePublisher(typed)
    let subscriber = TestSubscriber<String, Never>()
    input.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
    scheduler.advance(by: .milliseconds(1_399))
    XCTAssertEqual(subscriber.values, [])
    scheduler.advance(by: .milliseconds(1))
    XCTAssertEqual(subscriber.values, ["Hello"])
  }

  func test_finished_dropsTheWaitingValue_andCompletesOnTheScheduler() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "a--b|")
    let results = scheduler.start { input.debounce(for: 2, scheduler: scheduler) }
    XCTAssertEqual(results.recordedOutput.marbles(), "--a-|")
  }

  func test_failure_isForwarded() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "a---b#", values: ["a": 1, "b": 2], error: TestError())
    let results = scheduler.start { input.debounce(for: 2, scheduler: scheduler) }
    XCTAssertEqual(results.recordedOutput.marbles(values: ["a": 1, "b": 2]), "--a--#")
  }

  func test_requestsUnlimitedFromUpstream() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    upstream.debounce(for: 1, scheduler: scheduler).subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [.unlimited])
    XCTAssertEqual(subscriber.events, [.subscription("Debounce")])
  }

  func test_noDemand_dropsTheValue_thenMaxOneReceivesTheNext() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.debounce(for: 1, scheduler: scheduler).subscribe(subscriber)
    upstream.send(1)
    scheduler.advance(by: 1)
    subscriber.request(.max(1))
    upstream.send(2)
    upstream.send(3)
    scheduler.advance(by: 1)
    upstream.send(4)
    scheduler.advance(by: 1)
    XCTAssertEqual(subscriber.values, [3])
  }

  func test_cancel_stopsPendingEmission_andFreesDownstream() {
    let scheduler = VirtualTimeScheduler()
    let tracker = LifetimeTracker()
    var subscriber: TestSubscriber<LifetimeTracker.Tracked, Never>? = TestSubscriber()
    let lifetimeUpstream = ManualPublisher<LifetimeTracker.Tracked, Never>()
    lifetimeUpstream.debounce(for: 5, scheduler: scheduler).subscribe(subscriber!)
    lifetimeUpstream.send(tracker.make())
    subscriber?.cancel()
    lifetimeUpstream.releaseSubscriber()
    XCTAssertEqual(lifetimeUpstream.cancels, 1)
    XCTAssertEqual(tracker.liveCount, 0)
    weak let weakSubscriber = subscriber
    subscriber = nil
    XCTAssertNil(weakSubscriber)
    scheduler.run()
  }

  func test_descriptionAndOptions() {
    let scheduler = TestScheduler<VirtualTime, String>(now: 0)
    let subscriber = TestSubscriber<Int, Never>()
    let upstream = ManualPublisher<Int, Never>()
    upstream.debounce(for: 1, scheduler: scheduler, options: "x").subscribe(subscriber)
    upstream.send(1)
    scheduler.run()
    XCTAssertEqual(subscriber.events, [.subscription("Debounce"), .value(1)])
    XCTAssertEqual(scheduler.scheduledOptions, ["x"])
  }
}
