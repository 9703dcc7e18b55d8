import Confluence
import ConfluenceExtras
import ConfluenceTesting
import XCTest

final class DelayedRetryTests: XCTestCase {
  private typealias Source = ManualPublisher<Int, TestError>

  /// An upstream that records the virtual time of each subscription and makes a fresh
  /// manual publisher for each.
  private final class Attempts {
    let scheduler: VirtualTimeScheduler
    var times: [VirtualTime] = []
    var sources: [Source] = []

    init(_ scheduler: VirtualTimeScheduler) {
      self.scheduler = scheduler
    }

    var publisher: Deferred<Source> {
      Deferred {
        self.times.append(self.scheduler.now)
        let source = Source()
        self.sources.append(source)
        return source
      }
    }

    /// An upstream that fails at once, every time, with the attempt number.
    var failing: Deferred<Fail<Int, TestError>> {
      Deferred {
        self.times.append(self.scheduler.now)
        return Fail(error: TestError("attempt \(self.times.count)"))
      }
    }
  }

  // MARK: Timing

  func test_exponentialBackoff_resubscribesAtDoublingDelays_thenFails() {
    let scheduler = VirtualTimeScheduler()
    let attempts = Attempts(scheduler)
    let subscriber = TestSubscriber<Int, TestError>()
    var failedAt: VirtualTime?
    subscriber.onCompletion = { _ in failedAt = scheduler.now }

    attempts.failing.retry(3, initialDelay: 10, scheduler: scheduler).subscribe(subscriber)
    XCTAssertEqual(attempts.times, [0])
    scheduler.advance(by: 9)
    XCTAssertEqual(attempts.times, [0], "no resubscription before the first delay is over")
    scheduler.run()

    XCTAssertEqual(attempts.times, [0, 10, 30, 70])
    XCTAssertEqual(failedAt, 70)
    XCTAssertEqual(
      subscriber.events, [.subscription("DelayedRetry"), .completion(.failure(TestError("attempt 4")))])
  }

  func test_backoff_withMultiplierAndCap() {
    let scheduler = VirtualTimeScheduler(initialClock: 1000)
    let attempts = Attempts(scheduler)
    let subscriber = TestSubscriber<Int, TestError>()
    attempts.failing.retry(5, initialDelay: 5, multiplier: 3, maxDelay: 50, scheduler: scheduler)
      .subscribe(subscriber)
    scheduler.run()
    // Delays 5, 15, 45, then capped at 50, 50.
    XCTAssertEqual(attempts.times, [1000, 1005, 1020, 1065, 1115, 1165])
    XCTAssertEqual(subscriber.completion, .failure(TestError("attempt 6")))
  }

  func test_multiplierOne_keepsTheDelayConstant() {
    let scheduler = VirtualTimeScheduler()
    let attempts = Attempts(scheduler)
    attempts.failing.retry(3, initialDelay: 7, multiplier: 1, scheduler: scheduler)
      .subscribe(TestSubscriber<Int, TestError>())
    scheduler.run()
    XCTAssertEqual(attempts.times, [0, 7, 14, 21])
  }

  func test_customDelayClosure_isAskedForEachRetryInTurn() {
    let scheduler = VirtualTimeScheduler()
    let attempts = Attempts(scheduler)
    var asked: [Int] = []
    attempts.failing
      .retry(
        3,
        delay: { retry in
          asked.append(retry)
          return VirtualTimeInterval(retry * 100)
        }, scheduler: scheduler
      )
      .subscribe(TestSubscriber<Int, TestError>())
    scheduler.run()
    XCTAssertEqual(asked, [1, 2, 3])
    XCTAssertEqual(attempts.times, [0, 100, 300, 600])
  }

  func test_realSchedulerStrides_workWithBackoff() {
    let scheduler = VirtualTimeScheduler()
    let attempts = Attempts(scheduler)
    attempts.failing.retry(2, initialDelay: .milliseconds(250), scheduler: scheduler)
      .subscribe(TestSubscriber<Int, TestError>())
    scheduler.run()
    XCTAssertEqual(attempts.times, [0, 250_000_000, 750_000_000])
  }

  func test_zeroRetries_failsAtOnce() {
    let scheduler = VirtualTimeScheduler()
    let attempts = Attempts(scheduler)
    let subscriber = TestSubscriber<Int, TestError>()
    attempts.failing.retry(0, initialDelay: 10, scheduler: scheduler).subscribe(subscriber)
    XCTAssertEqual(subscriber.completion, .failure(TestError("attempt 1")))
    XCTAssertEqual(scheduler.pendingActionCount, 0)
  }

  // MARK: Values and completion

  func test_passesValuesOfEachAttempt_andFinishesWhenAnAttemptFinishes() {
    let scheduler = VirtualTimeScheduler()
    let attempts = Attempts(scheduler)
    let subscriber = TestSubscriber<Int, TestError>()
    attempts.publisher.retry(3, initialDelay: 10, scheduler: scheduler).subscribe(subscriber)

    attempts.sources[0].send(1)
    attempts.sources[0].send(completion: .failure(TestError("first")))
    scheduler.advance(by: 10)
    attempts.sources[1].send(2)
    attempts.sources[1].send(completion: .finished)
    scheduler.run()

    XCTAssertEqual(
      subscriber.events, [.subscription("DelayedRetry"), .value(1), .value(2), .completion(.finished)])
    XCTAssertEqual(attempts.times, [0, 10])
  }

  func test_retriesAreCountedOverTheWholeSubscription_notResetByValues() {
    let scheduler = VirtualTimeScheduler()
    let attempts = Attempts(scheduler)
    let subscriber = TestSubscriber<Int, TestError>()
    attempts.publisher.retry(1, initialDelay: 10, scheduler: scheduler).subscribe(subscriber)
    attempts.sources[0].send(completion: .failure(TestError("first")))
    scheduler.run()
    attempts.sources[1].send(1)
    attempts.sources[1].send(completion: .failure(TestError("second")))
    scheduler.run()
    XCTAssertEqual(
      subscriber.events, [.subscription("DelayedRetry"), .value(1), .completion(.failure(TestError("second")))])
    XCTAssertEqual(attempts.sources.count, 2)
  }

  // MARK: Demand

  func test_nextAttemptIsAskedForTheOutstandingDemand() {
    let scheduler = VirtualTimeScheduler()
    let attempts = Attempts(scheduler)
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(5))
    attempts.publisher.retry(2, initialDelay: 10, scheduler: scheduler).subscribe(subscriber)

    XCTAssertEqual(attempts.sources[0].demands, [.max(5)])
    attempts.sources[0].send(1)
    attempts.sources[0].send(2)
    attempts.sources[0].send(completion: .failure(TestError("first")))
    scheduler.run()

    XCTAssertEqual(attempts.sources[1].demands, [.max(3)])
    for value in 3...5 { XCTAssertTrue(attempts.sources[1].send(value)) }
    XCTAssertFalse(attempts.sources[1].send(6))
    XCTAssertEqual(subscriber.values, [1, 2, 3, 4, 5])
  }

  func test_demandRequestedWhileWaiting_isAskedOfTheNextAttempt() {
    let scheduler = VirtualTimeScheduler()
    let attempts = Attempts(scheduler)
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
    attempts.publisher.retry(2, initialDelay: 10, scheduler: scheduler).subscribe(subscriber)
    attempts.sources[0].send(completion: .failure(TestError("first")))
    subscriber.request(.max(2))
    scheduler.run()
    XCTAssertEqual(attempts.sources[1].demands, [.max(3)])
  }

  func test_honoursNoneThenOneThenMoreThenUnlimited() {
    let scheduler = VirtualTimeScheduler()
    let attempts = Attempts(scheduler)
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
    attempts.publisher.retry(2, initialDelay: 10, scheduler: scheduler).subscribe(subscriber)
    let source = attempts.sources[0]
    XCTAssertFalse(source.send(0))
    subscriber.request(.max(1))
    XCTAssertTrue(source.send(1))
    XCTAssertFalse(source.send(2))
    subscriber.request(.max(2))
    XCTAssertTrue(source.send(2))
    XCTAssertTrue(source.send(3))
    subscriber.request(.unlimited)
    source.send(completion: .failure(TestError("first")))
    scheduler.run()
    XCTAssertEqual(attempts.sources[1].demands, [.unlimited])
    XCTAssertEqual(subscriber.values, [1, 2, 3])
  }

  func test_demandReturnedFromReceive_countsAsOutstanding() {
    let scheduler = VirtualTimeScheduler()
    let attempts = Attempts(scheduler)
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(1))
    attempts.publisher.retry(1, initialDelay: 10, scheduler: scheduler).subscribe(subscriber)
    attempts.sources[0].send(1)
    attempts.sources[0].send(2)
    attempts.sources[0].send(completion: .failure(TestError("first")))
    scheduler.run()
    XCTAssertEqual(attempts.sources[1].demands, [.max(1)])
  }

  // MARK: Cancel and lifetimes

  func test_cancelWhileWaiting_preventsTheResubscription_andReleasesDownstreamAtOnce() {
    let scheduler = VirtualTimeScheduler()
    let attempts = Attempts(scheduler)
    weak var weakSubscriber: TestSubscriber<Int, TestError>?
    weak var weakSubscription: AnyObject?
    do {
      let subscriber = TestSubscriber<Int, TestError>()
      weakSubscriber = subscriber
      attempts.publisher.retry(2, initialDelay: 10, scheduler: scheduler).subscribe(subscriber)
      weakSubscription = subscriber.subscription as AnyObject?
      attempts.sources[0].send(completion: .failure(TestError("first")))
      subscriber.cancel()
      XCTAssertEqual(subscriber.events, [.subscription("DelayedRetry")])
    }
    XCTAssertNil(weakSubscriber, "downstream is released at cancel, not when the timer fires")
    scheduler.run()
    XCTAssertEqual(attempts.times, [0], "no resubscription after cancel")
    XCTAssertNil(weakSubscription, "the pending action let go of the subscription")
  }

  func test_cancelWhileSubscribed_cancelsUpstream() {
    let scheduler = VirtualTimeScheduler()
    let attempts = Attempts(scheduler)
    let subscriber = TestSubscriber<Int, TestError>()
    attempts.publisher.retry(2, initialDelay: 10, scheduler: scheduler).subscribe(subscriber)
    weak let subscription = subscriber.subscription as AnyObject?
    subscriber.cancel()
    XCTAssertTrue(attempts.sources[0].isCancelled)
    XCTAssertFalse(attempts.sources[0].hasSubscriber)
    XCTAssertNil(subscription)
    XCTAssertEqual(scheduler.pendingActionCount, 0)
  }

  func test_cancelInsideReceive_stopsValuesAndRetries() {
    let scheduler = VirtualTimeScheduler()
    let attempts = Attempts(scheduler)
    let subscriber = TestSubscriber<Int, TestError>()
    subscriber.onValue = { [unowned subscriber] _ in
      subscriber.cancel()
      return .none
    }
    attempts.publisher.retry(2, initialDelay: 10, scheduler: scheduler).subscribe(subscriber)
    attempts.sources[0].send(1)
    XCTAssertFalse(attempts.sources[0].send(2))
    attempts.sources[0].send(completion: .failure(TestError("late")))
    scheduler.run()
    XCTAssertEqual(subscriber.events, [.subscription("DelayedRetry"), .value(1)])
    XCTAssertTrue(attempts.sources[0].isCancelled)
    XCTAssertEqual(attempts.times, [0])
  }

  func test_lifetime_finalFailureFreesEverything() {
    let scheduler = VirtualTimeScheduler()
    let attempts = Attempts(scheduler)
    let tracker = LifetimeTracker()
    let subscriber = TestSubscriber<Int, TestError>()
    do {
      let probe = tracker.make()
      attempts.failing
        .retry(2, delay: { retry in withExtendedLifetime(probe) { VirtualTimeInterval(retry) } }, scheduler: scheduler)
        .subscribe(subscriber)
    }
    weak let subscription = subscriber.subscription as AnyObject?
    scheduler.run()
    XCTAssertEqual(subscriber.completion, .failure(TestError("attempt 3")))
    XCTAssertNil(subscription)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_lifetime_finishingFreesEverything() {
    let scheduler = VirtualTimeScheduler()
    let attempts = Attempts(scheduler)
    let subscriber = TestSubscriber<Int, TestError>()
    attempts.publisher.retry(2, initialDelay: 10, scheduler: scheduler).subscribe(subscriber)
    weak let subscription = subscriber.subscription as AnyObject?
    attempts.sources[0].send(completion: .failure(TestError("first")))
    scheduler.run()
    attempts.sources[1].send(completion: .finished)
    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertNil(subscription)
  }

  func test_immediateScheduler_retriesWithoutWaiting() {
    var attempts = 0
    let subscriber = TestSubscriber<Int, TestError>()
    Deferred { () -> Fail<Int, TestError> in
      attempts += 1
      return Fail(error: TestError("attempt \(attempts)"))
    }
    .retry(3, initialDelay: .seconds(1), scheduler: ImmediateScheduler.shared)
    .subscribe(subscriber)
    XCTAssertEqual(attempts, 4)
    XCTAssertEqual(subscriber.completion, .failure(TestError("attempt 4")))
  }
}
