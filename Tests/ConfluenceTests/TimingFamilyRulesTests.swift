import Confluence
import ConfluenceTesting
import XCTest

/// Apple's rules shared by the operators that hop or time events (`receive(on:)`, `delay`,
/// `subscribe(on:)`, `measureInterval`), each checked against every member.
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
    XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled], "the repeating timer stopped after firing")
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
}
