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

  // Matt Neuburg, "Understanding Combine": a 0.2 s timer throttled by 0.5 s, latest true,
  // produces 1, 4, 7, 10.
  func test_latest_timerEveryFifthOfASecond_throttledByHalfASecond() {
    let scheduler = TestScheduler(initialClock: 0)
    let timer = counter(scheduler, every: .milliseconds(200), upTo: 10)
    let results = scheduler.start(subscribedAt: 0, cancelledAt: VirtualTime(VirtualTimeInterval.seconds(5).ticks)) {
      timer.throttle(for: .seconds(0.5), scheduler: scheduler, latest: true)
    }
    XCTAssertEqual(results.recordedOutput.inputs, [1, 4, 7, 10])
    XCTAssertEqual(
      results.recordedOutput.dropFirst().map(\.time.ticks),
      [200, 900, 1_500, 2_100].map { VirtualTimeInterval.milliseconds($0).ticks })
  }

  func test_first_timerEveryFifthOfASecond_throttledByHalfASecond() {
    let scheduler = TestScheduler(initialClock: 0)
    let timer = counter(scheduler, every: .milliseconds(200), upTo: 10)
    let results = scheduler.start(subscribedAt: 0, cancelledAt: VirtualTime(VirtualTimeInterval.seconds(5).ticks)) {
      timer.throttle(for: .seconds(0.5), scheduler: scheduler, latest: false)
    }
    XCTAssertEqual(results.recordedOutput.inputs, [1, 2, 5, 8])
  }

  // Apple's documentation example: a 3-second timer throttled by 10 seconds delivers the
  // first event at once, then the latest of each following window.
  func test_appleExample_firstAtOnce_thenLatestPerWindow() {
    let scheduler = TestScheduler(initialClock: 0)
    let timer = counter(scheduler, every: .seconds(3), upTo: 10)
    let results = scheduler.start(subscribedAt: 0, cancelledAt: VirtualTime(VirtualTimeInterval.seconds(60).ticks)) {
      timer.throttle(for: .seconds(10), scheduler: scheduler, latest: true)
    }
    XCTAssertEqual(results.recordedOutput.inputs, [1, 5, 9, 10])
    XCTAssertEqual(results.recordedOutput.dropFirst().map(\.time.ticks), [3, 16, 28, 40].map { VirtualTimeInterval.seconds($0).ticks })
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
    XCTAssertLessThan(results.recordedOutput.inputs.count, text.count / 3)
  }

  func test_marbles_latest() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "ab-c----d|")
    let results = scheduler.start { input.throttle(for: 3, scheduler: scheduler, latest: true) }
    XCTAssertEqual(results.recordedOutput.marbles(), "a---c---d|")
  }

  func test_marbles_first() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "ab-c----d|")
    let results = scheduler.start { input.throttle(for: 3, scheduler: scheduler, latest: false) }
    XCTAssertEqual(results.recordedOutput.marbles(), "a---b---d|")
  }

  func test_finished_publishesTheWaitingValue_thenCompletes() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "ab|")
    let results = scheduler.start { input.throttle(for: 5, scheduler: scheduler, latest: true) }
    XCTAssertEqual(results.recordedOutput.marbles(), "a-(b|)")
  }

  func test_failure_dropsTheWaitingValue() {
    let scheduler = TestScheduler(initialClock: 0)
    let input = scheduler.createTestablePublisher(marbles: "ab#", values: ["a": 1, "b": 2], error: TestError())
    let results = scheduler.start { input.throttle(for: 5, scheduler: scheduler, latest: true) }
    XCTAssertEqual(results.recordedOutput.marbles(values: ["a": 1, "b": 2]), "a-#")
  }

  func test_requestsUnlimited_andHoldsAValueUntilDemand() {
    let scheduler = VirtualTimeScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    upstream.throttle(for: 2, scheduler: scheduler, latest: true).subscribe(subscriber)
    XCTAssertEqual(upstream.requested, [.unlimited])
    upstream.send(1)
    upstream.send(2)
    scheduler.advance(by: 5)
    XCTAssertEqual(subscriber.values, [])
    subscriber.request(.max(1))
    scheduler.advance(by: 0)
    XCTAssertEqual(subscriber.events, [.subscription("Throttle"), .value(2)])
    upstream.send(3)
    scheduler.advance(by: 5)
    XCTAssertEqual(subscriber.values, [2])
    subscriber.request(.max(5))
    scheduler.advance(by: 0)
    XCTAssertEqual(subscriber.values, [2, 3])
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
    // Upstream finishes while a value waits for the end of its window: that value goes out
    // with the completion, and a subscriber that cancels while receiving it hears nothing
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
      scheduler.advance(by: 1)
      XCTAssertEqual(subscriber.values.last, 2, "latest: \(latest)")
      XCTAssertNil(subscriber.completion, "latest: \(latest)")
      XCTAssertEqual(subscriber.violations, [], "latest: \(latest)")
    }
  }
}
