import Confluence
import ConfluenceTesting
import XCTest

final class ThrottleTests: XCTestCase {
  /// A counter that ticks every `every`, as `Timer.publish(every:).autoconnect().scan(0) { i, _ in i + 1 }`.
  private func counter(_ scheduler: VirtualTimeScheduler, every: VirtualTimeInterval, upTo count: Int)
    -> TestablePublisher<Int, Never>
  {
    scheduler.createRelativeTestablePublisher(
      TestSequence((1...count).map { (time: VirtualTime(every.ticks * $0), signal: .input($0)) }))
  }

  /// An input sent at the given milliseconds after the subscription.
  private func timed(_ points: [(Int, Int)]) -> TestSequence<Int, Never> {
    TestSequence(points.map { (time: VirtualTime(VirtualTimeInterval.milliseconds($0.0).ticks), signal: .input($0.1)) })
  }

  /// "Using Combine" (its throttle tests, recorded on iOS 14.1): a `@Published` property
  /// (-1 at once) set to 1, 2, 3, 4, 5, 6 at 0.1, 0.2, 0.6, 0.7, 0.9 and 1.2 s, throttled by
  /// 0.5 s. Each window ends 0.5 s after the last emission: at 0.5, 1.0 and 1.5 s.
  private let bookInput = [(0, -1), (100, 1), (200, 2), (600, 3), (700, 4), (900, 5), (1_200, 6)]

  func test_bookExample_latest_windowsEndHalfASecondAfterTheLastEmission() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createRelativeTestablePublisher(timed(bookInput))
    let results = scheduler.start(subscribedAt: 0, cancelledAt: VirtualTime(VirtualTimeInterval.seconds(3).ticks)) {
      input.throttle(for: .milliseconds(500), scheduler: scheduler, latest: true)
    }
    XCTAssertEqual(results.recordedOutput.inputs, [-1, 2, 5, 6])
    XCTAssertEqual(
      results.recordedOutput.dropFirst().map(\.time.ticks),
      [0, 500, 1_000, 1_500].map { VirtualTimeInterval.milliseconds($0).ticks })
  }

  func test_bookExample_first_windowsEndHalfASecondAfterTheLastEmission() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createRelativeTestablePublisher(timed(bookInput))
    let results = scheduler.start(subscribedAt: 0, cancelledAt: VirtualTime(VirtualTimeInterval.seconds(3).ticks)) {
      input.throttle(for: .milliseconds(500), scheduler: scheduler, latest: false)
    }
    XCTAssertEqual(results.recordedOutput.inputs, [-1, 1, 3, 6])
    XCTAssertEqual(
      results.recordedOutput.dropFirst().map(\.time.ticks),
      [0, 500, 1_000, 1_500].map { VirtualTimeInterval.milliseconds($0).ticks })
  }

  // Apple's documentation example: a 3-second timer throttled by 10 seconds delivers the
  // first event at once, then the latest of each following window; each window ends 10 s
  // after the previous emission (3, 13, 23, 33 s).
  func test_appleExample_firstAtOnce_thenLatestPerWindow() {
    let scheduler = TestScheduler(initialClock: 0)
    let timer = counter(scheduler, every: .seconds(3), upTo: 10)
    let results = scheduler.start(subscribedAt: 0, cancelledAt: VirtualTime(VirtualTimeInterval.seconds(60).ticks)) {
      timer.throttle(for: .seconds(10), scheduler: scheduler, latest: true)
    }
    XCTAssertEqual(results.recordedOutput.inputs, [1, 4, 7, 10])
    XCTAssertEqual(
      results.recordedOutput.dropFirst().map(\.time.ticks),
      [3, 13, 23, 33].map { VirtualTimeInterval.seconds($0).ticks })
  }

  // "Using Combine": `.throttle(for: 0.5, scheduler: myBackgroundQueue, latest: true)` "keeps it
  // to a maximum of 1 request every half-second" while the user types.
  func test_bookExample_typing_atMostOneValuePerHalfSecond_andTheFinalTextArrives() {
    let scheduler = TestScheduler(initialClock: 0)
    let text = "heckj/swiftui-notes"
    let typed: TestSequence<String, Never> = TestSequence(
      (1...text.count).map {
        (time: VirtualTime(VirtualTimeInterval.milliseconds(120 * $0).ticks), signal: .input(String(text.prefix($0))))
      })
    let input = scheduler.createRelativeTestablePublisher(typed)
    let results = scheduler.start(subscribedAt: 0, cancelledAt: VirtualTime(VirtualTimeInterval.seconds(10).ticks)) {
      input.throttle(for: .seconds(0.5), scheduler: scheduler, latest: true)
    }
    let times = results.recordedOutput.dropFirst().map(\.time.ticks)
    for (earlier, later) in zip(times, times.dropFirst()) {
      XCTAssertGreaterThanOrEqual(later - earlier, VirtualTimeInterval.milliseconds(500).ticks)
    }
    XCTAssertEqual(results.recordedOutput.inputs.first, "h")
    XCTAssertEqual(results.recordedOutput.inputs.last, text)
    // Typing lasts 2.28 s; each window ends 0.5 s after the previous emission.
    XCTAssertEqual(times, [120, 620, 1_120, 1_620, 2_120, 2_620].map { VirtualTimeInterval.milliseconds($0).ticks })
  }

  // A window ends `interval` after the last emission: b and c wait for 4 (not for 5, one
  // interval after b arrived); d waits for 8, e for 12; f comes 4 after the last emission,
  // so it goes out at once.
  func test_marbles_latest() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "abc----d-e------f|")
    let results = scheduler.start { input.throttle(for: 4, scheduler: scheduler, latest: true) }
    XCTAssertEqual(results.recordedOutput.marbles(), "a---c---d---e---f|")
  }

  func test_marbles_first() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "abc----d-e------f|")
    let results = scheduler.start { input.throttle(for: 4, scheduler: scheduler, latest: false) }
    XCTAssertEqual(results.recordedOutput.marbles(), "a---b---d---e---f|")
  }

  func test_finished_whileAValueWaits_goesOutWithIt_atTheEndOfTheWindow() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "ab|")
    let results = scheduler.start { input.throttle(for: 5, scheduler: scheduler, latest: true) }
    XCTAssertEqual(results.recordedOutput.marbles(), "a----(b|)")
  }

  func test_failure_whileAValueWaits_goesOutWithIt_afterTheValue() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "ab#", values: ["a": 1, "b": 2], error: TestError())
    let results = scheduler.start { input.throttle(for: 5, scheduler: scheduler, latest: true) }
    XCTAssertEqual(results.recordedOutput.marbles(values: ["a": 1, "b": 2]), "a----(b#)")
  }

  func test_completion_withNothingWaiting_isScheduledAtOnce() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "a-#", values: ["a": 1], error: TestError())
    let results = scheduler.start { input.throttle(for: 5, scheduler: scheduler, latest: true) }
    XCTAssertEqual(results.recordedOutput.marbles(values: ["a": 1]), "a-#")
  }

  func test_requestsUnlimited_andDropsAValueDueWithoutDemand() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.throttle(for: 2, scheduler: scheduler, latest: true).subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [.unlimited])
    upstream.send(1)
    scheduler.advance(by: 5)
    subscriber.request(.max(1))
    scheduler.advance(by: 5)
    XCTAssertEqual(subscriber.events, [.subscription("Throttle")], "due without demand: dropped, not kept")
    upstream.send(2)
    scheduler.advance(by: 0)
    XCTAssertEqual(subscriber.events, [.subscription("Throttle"), .value(2)])
    upstream.send(3)
    scheduler.advance(by: 5)
    XCTAssertEqual(subscriber.values, [2], "the demand was used up")
  }

  func test_cancel_stopsPendingEmission_andFreesValueAndDownstream() {
    let scheduler = VirtualTimeScheduler()
    let tracker = LifetimeTracker()
    let upstream = ManualPublisher<LifetimeTracker.Tracked, Never>()
    var subscriber: TestSubscriber<LifetimeTracker.Tracked, Never>? = TestSubscriber()
    upstream.throttle(for: 5, scheduler: scheduler, latest: false).subscribe(subscriber!)
    upstream.send(tracker.make())
    subscriber?.cancel()
    upstream.releaseSubscriber()
    XCTAssertEqual(upstream.cancels, 1)
    XCTAssertEqual(tracker.liveCount, 0)
    weak let weakSubscriber = subscriber
    subscriber = nil
    XCTAssertNil(weakSubscriber)
    scheduler.run()
  }

  func test_cancelInsideTheLastValue_getsNoCompletion() {
    // Upstream finishes while a value waits for the end of its window: the completion goes
    // out with that value, and a subscriber that cancels while receiving it hears nothing
    // more.
    for latest in [true, false] {
      let scheduler = TestScheduler(initialClock: 0)
      let subject = PassthroughSubject<Int, Never>()
      let subscriber = TestSubscriber<Int, Never>()
      subscriber.onValue = { [unowned subscriber] value in
        if value == 2 { subscriber.cancel() }
        return .none
      }
      subject.throttle(for: 10, scheduler: scheduler, latest: latest).subscribe(subscriber)
      subject.send(1)
      scheduler.advance(by: 1)
      subject.send(2)
      subject.send(completion: .finished)
      scheduler.advance(by: 10)
      XCTAssertEqual(subscriber.values.last, 2, "latest: \(latest)")
      XCTAssertNil(subscriber.completion, "latest: \(latest)")
      XCTAssertEqual(subscriber.violations, [], "latest: \(latest)")
    }
  }
}
