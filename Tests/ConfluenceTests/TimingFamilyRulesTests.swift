import Confluence
import ConfluenceTesting
import XCTest

/// Apple's rules shared by the operators that hop or time events (`receive(on:)`, `delay`,
/// `subscribe(on:)`, `measureInterval`, `timeout`, `debounce`, `throttle`), each checked
/// against every member.
final class TimingFamilyRulesTests: XCTestCase {
  private typealias Make = (DetachedUpstream<Int, TestError>, VirtualTimeScheduler) -> AnyPublisher<Int, TestError>

  private let members: [(String, Make)] = [
    ("receive(on:)", { $0.receive(on: $1).eraseToAnyPublisher() }),
    ("delay", { $0.delay(for: 1, scheduler: $1).eraseToAnyPublisher() }),
    ("subscribe(on:)", { $0.subscribe(on: $1).eraseToAnyPublisher() }),
    ("measureInterval", { $0.measureInterval(using: $1).map { _ in 0 }.eraseToAnyPublisher() }),
    ("timeout", { $0.timeout(100, scheduler: $1).eraseToAnyPublisher() }),
  ]

  func test_requestNone_goesUpstreamUnchecked_noTrap() {
    for (member, make) in members {
      let scheduler = TestScheduler(initialClock: 0)
      let upstream = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
      make(upstream, scheduler).subscribe(subscriber)
      scheduler.advance(by: 1)
      let subscription = upstream.attach()
      scheduler.advance(by: 1)
      subscriber.subscription?.request(.max(2))
      subscriber.subscription?.request(.none)
      scheduler.advance(by: 1)
      XCTAssertEqual(subscription.events, [.requested(.max(2)), .requested(.none)], member)
    }
  }

  func test_timeout_cancelBeforeTheSubscription_isNotRemembered() {
    let scheduler = TestScheduler(initialClock: 0)
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    upstream.timeout(5, scheduler: scheduler).subscribe(subscriber)
    (upstream.operatorSubscriber as? Cancellable)?.cancel()
    let subscription = upstream.attach()
    XCTAssertEqual(subscription.events, [], "the late subscription is accepted, not cancelled")
  }

  func test_timeout_firesOnce_cancelsUpstream_andShowsNoMirrorChildren() {
    let scheduler = TestScheduler(initialClock: 0)
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.timeout(5, scheduler: scheduler).subscribe(subscriber)
    let subscription = upstream.attach()
    XCTAssertEqual((upstream.operatorSubscriber as? CustomReflectable)?.customMirror.children.count, 0)
    scheduler.advance(by: 20)
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertEqual(
      subscription.events, [.requested(.unlimited), .cancelled], "the repeating timer stopped after firing")
  }

  func test_debounce_cancelBeforeTheSubscription_isNotRemembered_andMirrorShowsDemandAndValue() {
    let scheduler = TestScheduler(initialClock: 0)
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3))
    upstream.debounce(for: 5, scheduler: scheduler).subscribe(subscriber)
    (upstream.operatorSubscriber as? Cancellable)?.cancel()
    let subscription = upstream.attach()
    XCTAssertEqual(subscription.events, [.requested(.unlimited)], "the late subscription is accepted")
    upstream.send(7)
    let mirror = (upstream.operatorSubscriber as? CustomReflectable)?.customMirror
    XCTAssertEqual(mirror?.children.map(\.label), ["downstream", "downstreamDemand", "currentValue"])
    XCTAssertEqual(mirror?.children.dropFirst().map { String(describing: $0.value) }, ["max(3)", "Optional(7)"])
    scheduler.advance(by: 10)
    XCTAssertEqual(subscriber.values, [7], "one value per quiet period, though the timer repeats")
  }

  func test_timeout_cancel_keepsTheSubscriber_theArmedTimerHoldsIt() {
    let scheduler = VirtualTimeScheduler()
    let upstream = DetachedUpstream<Int, TestError>()
    var subscriber: TestSubscriber<Int, TestError>? = TestSubscriber()
    upstream.timeout(5, scheduler: scheduler).subscribe(subscriber!)
    let subscription = upstream.attach()
    _ = upstream.send(1)
    subscriber?.cancel()
    XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled])
    weak let released = subscriber
    subscriber = nil
    XCTAssertNotNil(released, "the queued delivery and the subscription still hold it")
    _ = scheduler.run()
    XCTAssertEqual(released?.values ?? [], [], "nothing is delivered after the cancel")
  }

  func test_timeout_aScheduledCompletionHoldsTheSubscriberUntilItRuns() {
    let scheduler = VirtualTimeScheduler()
    let upstream = DetachedUpstream<Int, TestError>()
    var subscriber: TestSubscriber<Int, TestError>? = TestSubscriber()
    upstream.timeout(5, scheduler: scheduler).subscribe(subscriber!)
    _ = upstream.attach()
    upstream.send(completion: .finished)
    weak let released = subscriber
    subscriber = nil
    XCTAssertNotNil(released)
    XCTAssertNil(released?.completion, "delivered on the scheduler, not at once")
    _ = scheduler.run()
    XCTAssertNil(released, "let go once the completion was delivered")
  }

  func test_debounce_completionIsScheduledWithoutTheOperatorsOptions() {
    let scheduler = TestScheduler<VirtualTime, String>(now: 0)
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.debounce(for: 5, scheduler: scheduler, options: "opts").subscribe(subscriber)
    _ = upstream.attach()
    _ = upstream.send(1)
    upstream.send(completion: .finished)
    XCTAssertEqual(scheduler.scheduledOptions, ["opts", nil])
    _ = scheduler.run()
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_debounce_cancel_keepsTheSubscriberWhileTheSubscriptionLives() {
    let scheduler = VirtualTimeScheduler()
    let upstream = DetachedUpstream<Int, TestError>()
    var subscriber: TestSubscriber<Int, TestError>? = TestSubscriber()
    upstream.debounce(for: 5, scheduler: scheduler).subscribe(subscriber!)
    _ = upstream.attach()
    let operatorSubscription = upstream.operatorSubscription
    _ = upstream.send(1)
    operatorSubscription?.cancel()
    weak let released = subscriber
    subscriber = nil
    XCTAssertNotNil(released, "the subscription still holds its downstream")
    _ = scheduler.run()
    XCTAssertEqual(released?.values ?? [], [], "nothing is delivered after the cancel")
    withExtendedLifetime(operatorSubscription) {}
  }

  // MARK: throttle and debounce: the timing operators that request unlimited and hold a value

  private typealias MakeTimed = (DetachedUpstream<Int, TestError>, VirtualTimeScheduler) -> AnyPublisher<Int, TestError>

  /// `make`'s operator on a fresh scheduler, subscribed by a subscriber that asks for
  /// nothing, its upstream attached.
  private func attachedWithoutDemand(_ make: MakeTimed) -> (
    VirtualTimeScheduler, DetachedUpstream<Int, TestError>, TestSubscriber<Int, TestError>
  ) {
    let scheduler = TestScheduler(initialClock: 0)
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    make(upstream, scheduler).subscribe(subscriber)
    _ = upstream.attach()
    return (scheduler, upstream, subscriber)
  }

  private let unlimitedMembers: [(String, MakeTimed)] = [
    ("throttle(latest: true)", { $0.throttle(for: 5, scheduler: $1, latest: true).eraseToAnyPublisher() }),
    ("throttle(latest: false)", { $0.throttle(for: 5, scheduler: $1, latest: false).eraseToAnyPublisher() }),
    ("debounce", { $0.debounce(for: 5, scheduler: $1).eraseToAnyPublisher() }),
  ]

  // Apple's throttle remembers a cancel that comes before upstream's subscription (the
  // subscription is cancelled when it arrives); debounce, timeout and delay forget it.
  func test_cancelBeforeTheSubscription_throttleRemembersIt_debounceForgetsIt() {
    for (member, make) in unlimitedMembers {
      let scheduler = TestScheduler(initialClock: 0)
      let upstream = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
      make(upstream, scheduler).subscribe(subscriber)
      (upstream.operatorSubscriber as? Cancellable)?.cancel()
      let subscription = upstream.attach()
      if member.hasPrefix("throttle") {
        XCTAssertEqual(subscription.events, [.cancelled], "\(member): the late subscription is cancelled")
        XCTAssertEqual(subscriber.events, [], member)
        _ = upstream.send(1)
        _ = scheduler.run()
        XCTAssertEqual(scheduler.executedActionCount, 0, member)
      } else {
        XCTAssertEqual(subscription.events, [.requested(.unlimited)], "\(member): the late subscription is accepted")
      }
    }
  }

  func test_requestNone_isCountedWithoutATrap_andNotPassedUpstream() {
    for (member, make) in unlimitedMembers {
      let scheduler = TestScheduler(initialClock: 0)
      let upstream = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
      make(upstream, scheduler).subscribe(subscriber)
      let subscription = upstream.attach()
      subscriber.subscription?.request(.none)
      subscriber.subscription?.request(.max(1))
      XCTAssertEqual(subscription.events, [.requested(.unlimited)], member)
    }
  }

  func test_eventsBeforeTheSubscription_areIgnored() {
    for (member, make) in unlimitedMembers {
      let scheduler = TestScheduler(initialClock: 0)
      let upstream = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>()
      make(upstream, scheduler).subscribe(subscriber)
      XCTAssertEqual(upstream.send(1), .none, member)
      upstream.send(completion: .failure(TestError()))
      _ = scheduler.run()
      XCTAssertEqual(subscriber.events, [], "\(member): nothing before upstream's subscription")
      XCTAssertEqual(scheduler.executedActionCount, 0, "\(member): nothing was scheduled")
    }
  }

  /// Debounce and throttle hold one value; one that comes due while the downstream has no
  /// outstanding demand is dropped, and a later request does not bring it back.
  func test_aValueDueWithoutDemand_isDropped_debounceAndThrottle() {
    for (member, make) in unlimitedMembers {
      let (scheduler, upstream, subscriber) = attachedWithoutDemand(make)
      _ = upstream.send(1)
      scheduler.advance(by: 10)
      subscriber.request(.max(1))
      scheduler.advance(by: 10)
      XCTAssertEqual(subscriber.values, [], member)
      _ = upstream.send(2)
      scheduler.advance(by: 10)
      XCTAssertEqual(subscriber.values, [2], member)
    }
  }

  // Apple's throttle reads the clock as its subscriber is made and as the subscription
  // arrives, then once per value and once per emission; nothing else differs.
  func test_throttle_readsTheClockWhenMadeAndSubscribed_thenOncePerValue_schedulesOneEmissionAtATime() {
    let scheduler = CallRecordingScheduler()
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.throttle(for: 5, scheduler: scheduler, latest: true).subscribe(subscriber)
    XCTAssertEqual(scheduler.calls, ["now"], "read as the subscriber is made")
    _ = upstream.send(0)
    XCTAssertEqual(scheduler.calls, ["now"], "nothing is asked for a value before the subscription")
    _ = upstream.attach()
    XCTAssertEqual(scheduler.calls, ["now", "now"], "read again as the subscription arrives")
    _ = upstream.send(1)
    XCTAssertEqual(scheduler.calls.dropFirst(2), ["now", "schedule"])
    scheduler.base.advance(by: 1)
    XCTAssertEqual(scheduler.calls.dropFirst(2), ["now", "schedule", "now"], "the emission notes its time")
    _ = upstream.send(2)
    _ = upstream.send(3)
    XCTAssertEqual(
      scheduler.calls.dropFirst(5), ["now", "minimumTolerance", "schedule(after: 5)", "now"],
      "the window ends 5 after the emission at 0; a second value joins the scheduled emission")
    upstream.send(completion: .finished)
    _ = upstream.send(4)
    XCTAssertEqual(scheduler.calls.count, 9, "the completion joins the emission; later values ask nothing")
    scheduler.base.advance(by: 10)
    XCTAssertEqual(scheduler.calls.count, 10, "the emission reads the clock once more")
    XCTAssertEqual(subscriber.values, [1, 3])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  // Apple's throttle schedules nothing for a value that finds no outstanding demand: the
  // value is dropped at once, so a request before its window would have ended does not save
  // it. Debounce schedules its timer whatever the demand (recorded) and delivers the value
  // if demand has come by the time it is due.
  func test_aValueWithoutDemand_throttleSchedulesNothing_debounceSchedulesItsTimer() {
    for (member, make) in unlimitedMembers {
      let (scheduler, upstream, subscriber) = attachedWithoutDemand(make)
      _ = upstream.send(1)
      let isThrottle = member.hasPrefix("throttle")
      XCTAssertEqual(scheduler.pendingActionCount, isThrottle ? 0 : 1, member)
      subscriber.request(.max(1))
      _ = scheduler.run()
      XCTAssertEqual(subscriber.values, isThrottle ? [] : [1], member)
    }
  }

  func test_throttle_mirrorHasNoChildren_debounceShowsDemandAndValue_timeoutNone() {
    let scheduler = TestScheduler(initialClock: 0)
    for (member, make) in unlimitedMembers + [("timeout", { $0.timeout(5, scheduler: $1).eraseToAnyPublisher() })] {
      let upstream = DetachedUpstream<Int, TestError>()
      make(upstream, scheduler).subscribe(TestSubscriber<Int, TestError>())
      _ = upstream.attach()
      let children = (upstream.operatorSubscriber as? CustomReflectable)?.customMirror.children.map(\.label)
      XCTAssertEqual(
        children, member == "debounce" ? ["downstream", "downstreamDemand", "currentValue"] : [], member)
    }
  }

  func test_debounce_asksTheTimeOncePerValue_andNothingAfterTheCompletion() {
    let scheduler = CallRecordingScheduler()
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.debounce(for: 5, scheduler: scheduler).subscribe(subscriber)
    _ = upstream.send(0)
    _ = upstream.attach()
    _ = upstream.send(1)
    XCTAssertEqual(scheduler.calls.filter { $0 == "now" }.count, 1)
    upstream.send(completion: .finished)
    let asked = scheduler.calls.count
    _ = upstream.send(2)
    XCTAssertEqual(scheduler.calls.count, asked, "nothing is asked for a value after the completion")
    scheduler.base.advance(by: 10)
    XCTAssertEqual(subscriber.events, [.subscription("Debounce"), .completion(.finished)])
  }

  func test_throttle_cancelFromInsideAValue_stopsEverything_andAskedNothingMore() {
    let scheduler = CallRecordingScheduler()
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    subscriber.onValue = { [unowned subscriber] _ in
      subscriber.cancel()
      return .none
    }
    upstream.throttle(for: 5, scheduler: scheduler, latest: true).subscribe(subscriber)
    let subscription = upstream.attach()
    _ = upstream.send(1)
    scheduler.base.advance(by: 1)
    XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled])
    let asked = scheduler.calls.count
    _ = upstream.send(2)
    upstream.send(completion: .finished)
    scheduler.base.advance(by: 10)
    XCTAssertEqual(scheduler.calls.count, asked, "nothing is asked of the scheduler after the cancel")
    XCTAssertEqual(subscriber.events, [.subscription("Throttle"), .value(1)])
    XCTAssertEqual(subscriber.violations, [])
  }

  func test_throttle_completionWhileAnEmissionIsQueued_deliversBothOnce_inOrder() {
    for failing in [false, true] {
      let scheduler = TestScheduler(initialClock: 0)
      let upstream = DetachedUpstream<Int, TestError>()
      let subscriber = TestSubscriber<Int, TestError>()
      upstream.throttle(for: 5, scheduler: scheduler, latest: true).subscribe(subscriber)
      _ = upstream.attach()
      _ = upstream.send(1)
      upstream.send(completion: failing ? .failure(TestError()) : .finished)
      upstream.send(completion: .finished)
      _ = scheduler.run()
      XCTAssertEqual(subscriber.values, [1], "failing: \(failing)")
      XCTAssertEqual(subscriber.completion, failing ? .failure(TestError()) : .finished)
      XCTAssertEqual(subscriber.violations, [], "failing: \(failing)")
    }
  }
}

/// A virtual-time scheduler that records which of its members an operator used.
private final class CallRecordingScheduler: Scheduler {
  typealias SchedulerTimeType = VirtualTime
  typealias SchedulerOptions = Never

  let base = TestScheduler(initialClock: 0)
  private(set) var calls: [String] = []

  var now: VirtualTime {
    calls.append("now")
    return base.now
  }

  var minimumTolerance: VirtualTimeInterval {
    calls.append("minimumTolerance")
    return base.minimumTolerance
  }

  func schedule(options: Never?, _ action: @escaping () -> Void) {
    calls.append("schedule")
    base.schedule(options: nil, action)
  }

  func schedule(
    after date: VirtualTime, tolerance: VirtualTimeInterval, options: Never?, _ action: @escaping () -> Void
  ) {
    calls.append("schedule(after: \(date))")
    base.schedule(after: date, tolerance: tolerance, options: nil, action)
  }

  func schedule(
    after date: VirtualTime, interval: VirtualTimeInterval, tolerance: VirtualTimeInterval, options: Never?,
    _ action: @escaping () -> Void
  ) -> Cancellable {
    calls.append("schedule(after: \(date), interval: \(interval))")
    return base.schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
  }
}
