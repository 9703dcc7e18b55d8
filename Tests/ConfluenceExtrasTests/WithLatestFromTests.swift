import Confluence
import ConfluenceExtras
import ConfluenceTesting
import XCTest

final class WithLatestFromTests: XCTestCase {
  private typealias Source = ManualPublisher<Int, TestError>

  private func pair(_ value: Int, _ latest: Int) -> String { "\(value)+\(latest)" }

  // MARK: Values

  func test_emitsEachUpstreamValueWithTheLatestOtherValue_whenBothHaveValues() {
    let upstream = Source()
    let other = Source()
    let subscriber = TestSubscriber<String, TestError>()
    upstream.withLatestFrom(other, resultSelector: pair).subscribe(subscriber)

    other.send(10)
    upstream.send(1)
    other.send(20)
    other.send(30)
    upstream.send(2)
    upstream.send(3)

    XCTAssertEqual(
      subscriber.events,
      [.subscription("WithLatestFrom"), .value("1+10"), .value("2+30"), .value("3+30")])
  }

  func test_publishesPairs_withoutResultSelector() {
    let upstream = Source()
    let other = Source()
    let subscriber = TestSubscriber<(Int, Int), TestError>()
    upstream.withLatestFrom(other).subscribe(subscriber)

    other.send(7)
    upstream.send(1)
    upstream.send(2)
    upstream.send(completion: .finished)

    XCTAssertEqual(
      subscriber.eventDescriptions,
      ["subscription(WithLatestFrom)", "value((1, 7))", "value((2, 7))", "completion(finished)"])
  }

  func test_combinesWithSynchronousOther_likeJust() {
    let subscriber = TestSubscriber<(Int, String), Never>()
    [1, 2, 3].publisher.withLatestFrom(Just("x")).subscribe(subscriber)
    XCTAssertEqual(
      subscriber.eventDescriptions,
      [
        "subscription(WithLatestFrom)", "value((1, \"x\"))", "value((2, \"x\"))", "value((3, \"x\"))",
        "completion(finished)",
      ])
  }

  func test_dropsUpstreamValues_beforeOtherHasAValue_andAsksUpstreamForReplacements() {
    let upstream = Source()
    let other = Source()
    let subscriber = TestSubscriber<String, TestError>(initialDemand: .max(2))
    upstream.withLatestFrom(other, resultSelector: pair).subscribe(subscriber)

    XCTAssertTrue(upstream.send(1))  // dropped: other has nothing yet
    XCTAssertTrue(upstream.send(2))  // dropped
    other.send(5)
    XCTAssertTrue(upstream.send(3))
    XCTAssertTrue(upstream.send(4))
    XCTAssertFalse(upstream.send(5), "downstream's two units of demand are used up")

    XCTAssertEqual(subscriber.values, ["3+5", "4+5"])
    XCTAssertEqual(upstream.demands, [.max(2), .max(1), .max(1)])
    XCTAssertEqual(subscriber.demands, [.max(2)])
  }

  func test_upstreamValuesDoNotEmit_whenOtherFinishedWithoutValues() {
    let upstream = Source()
    let other = Source()
    let subscriber = TestSubscriber<String, TestError>()
    upstream.withLatestFrom(other, resultSelector: pair).subscribe(subscriber)

    other.send(completion: .finished)
    upstream.send(1)
    upstream.send(completion: .finished)

    XCTAssertEqual(subscriber.events, [.subscription("WithLatestFrom"), .completion(.finished)])
  }

  func test_keepsOthersLastValue_afterOtherFinishes() {
    let upstream = Source()
    let other = Source()
    let subscriber = TestSubscriber<String, TestError>()
    upstream.withLatestFrom(other, resultSelector: pair).subscribe(subscriber)

    other.send(4)
    other.send(completion: .finished)
    upstream.send(1)
    upstream.send(2)

    XCTAssertEqual(subscriber.values, ["1+4", "2+4"])
    XCTAssertNil(subscriber.completion, "only upstream's completion ends the stream")
    XCTAssertFalse(upstream.isCancelled)
  }

  // MARK: Demand

  func test_passesDownstreamDemandToUpstream_noneThenOneThenMoreThenUnlimited() {
    let upstream = Source()
    let other = Source()
    let subscriber = TestSubscriber<String, TestError>(initialDemand: .none)
    upstream.withLatestFrom(other, resultSelector: pair).subscribe(subscriber)
    other.send(0)

    XCTAssertEqual(upstream.demands, [])
    XCTAssertFalse(upstream.send(1))

    subscriber.request(.max(1))
    XCTAssertTrue(upstream.send(1))
    XCTAssertFalse(upstream.send(2))

    subscriber.request(.max(2))
    XCTAssertTrue(upstream.send(2))
    XCTAssertTrue(upstream.send(3))
    XCTAssertFalse(upstream.send(4))

    subscriber.request(.unlimited)
    for value in 4...6 { XCTAssertTrue(upstream.send(value)) }

    XCTAssertEqual(subscriber.values, ["1+0", "2+0", "3+0", "4+0", "5+0", "6+0"])
    XCTAssertEqual(upstream.demands, [.max(1), .max(2), .unlimited])
  }

  func test_requestsUnlimitedFromOther_beforeDownstreamAsksForAnything() {
    let upstream = Source()
    let other = Source()
    let subscriber = TestSubscriber<String, TestError>(initialDemand: .none)
    upstream.withLatestFrom(other, resultSelector: pair).subscribe(subscriber)
    XCTAssertEqual(other.demands, [.unlimited])
    XCTAssertEqual(upstream.subscriptionCount, 1)
  }

  func test_demandReturnedFromReceive_goesToUpstream() {
    let upstream = Source()
    let other = Source()
    let subscriber = TestSubscriber<String, TestError>(initialDemand: .max(1), demandPerValue: .max(1))
    upstream.withLatestFrom(other, resultSelector: pair).subscribe(subscriber)
    other.send(9)
    for value in 1...3 { XCTAssertTrue(upstream.send(value)) }
    XCTAssertEqual(subscriber.values, ["1+9", "2+9", "3+9"])
    XCTAssertEqual(upstream.demands, [.max(1), .max(1), .max(1), .max(1)])
  }

  func test_demandRequestedBeforeUpstreamSubscribes_isPassedOnWhenItDoes() {
    let other = Source()
    let subscriber = TestSubscriber<String, TestError>(initialDemand: .max(3))
    var created: Source?
    let upstream = Deferred { () -> Source in
      XCTAssertEqual(subscriber.demands, [.max(3)], "downstream asks before upstream is subscribed")
      let source = Source()
      created = source
      return source
    }
    upstream.withLatestFrom(other, resultSelector: pair).subscribe(subscriber)
    XCTAssertEqual(created?.demands, [.max(3)])
  }

  // MARK: Completion and failure

  func test_finishesWhenUpstreamFinishes_andCancelsOther() {
    let upstream = Source()
    let other = Source()
    let subscriber = TestSubscriber<String, TestError>()
    upstream.withLatestFrom(other, resultSelector: pair).subscribe(subscriber)
    other.send(1)
    upstream.send(1)
    upstream.send(completion: .finished)

    XCTAssertEqual(
      subscriber.events, [.subscription("WithLatestFrom"), .value("1+1"), .completion(.finished)])
    XCTAssertTrue(other.isCancelled)
    other.send(2)
    XCTAssertFalse(upstream.send(2))
  }

  func test_failsWhenUpstreamFails_andCancelsOther() {
    let upstream = Source()
    let other = Source()
    let subscriber = TestSubscriber<String, TestError>()
    upstream.withLatestFrom(other, resultSelector: pair).subscribe(subscriber)
    other.send(1)
    upstream.send(1)
    upstream.send(completion: .failure(TestError("up")))

    XCTAssertEqual(
      subscriber.events,
      [.subscription("WithLatestFrom"), .value("1+1"), .completion(.failure(TestError("up")))])
    XCTAssertTrue(other.isCancelled)
  }

  func test_failsWhenOtherFails_andCancelsUpstream() {
    let upstream = Source()
    let other = Source()
    let subscriber = TestSubscriber<String, TestError>()
    upstream.withLatestFrom(other, resultSelector: pair).subscribe(subscriber)
    other.send(1)
    upstream.send(1)
    other.send(completion: .failure(TestError("other")))

    XCTAssertEqual(
      subscriber.events,
      [.subscription("WithLatestFrom"), .value("1+1"), .completion(.failure(TestError("other")))])
    XCTAssertTrue(upstream.isCancelled)
    XCTAssertFalse(upstream.send(2))
    upstream.send(completion: .finished)
    XCTAssertEqual(subscriber.events.count, 3)
  }

  func test_failsWithoutSubscribingUpstream_whenOtherFailsWhileBeingSubscribed() {
    let upstream = Source()
    let subscriber = TestSubscriber<String, TestError>()
    upstream.withLatestFrom(Fail<Int, TestError>(error: TestError("early")), resultSelector: pair)
      .subscribe(subscriber)
    XCTAssertEqual(
      subscriber.events, [.subscription("WithLatestFrom"), .completion(.failure(TestError("early")))])
    XCTAssertEqual(upstream.subscriptionCount, 0)
  }

  func test_failureOfOtherDuringReceive_isDeliveredAfterReceiveReturns() {
    let upstream = Source()
    let other = Source()
    let subscriber = TestSubscriber<String, TestError>()
    var insideReceive = false
    var completedInsideReceive = false
    subscriber.onValue = { _ in
      insideReceive = true
      other.send(completion: .failure(TestError("reentrant")))
      insideReceive = false
      return .none
    }
    subscriber.onCompletion = { _ in completedInsideReceive = insideReceive }
    upstream.withLatestFrom(other, resultSelector: pair).subscribe(subscriber)
    other.send(1)
    upstream.send(1)

    XCTAssertEqual(
      subscriber.events,
      [.subscription("WithLatestFrom"), .value("1+1"), .completion(.failure(TestError("reentrant")))])
    XCTAssertFalse(completedInsideReceive, "downstream must not be re-entered with the completion")
    XCTAssertTrue(upstream.isCancelled)
  }

  // MARK: Cancel

  func test_cancelFromDownstream_cancelsBothInputs() {
    let upstream = Source()
    let other = Source()
    let subscriber = TestSubscriber<String, TestError>()
    upstream.withLatestFrom(other, resultSelector: pair).subscribe(subscriber)
    other.send(1)
    upstream.send(1)
    subscriber.cancel()

    XCTAssertTrue(upstream.isCancelled)
    XCTAssertTrue(other.isCancelled)
    XCTAssertFalse(upstream.send(2))
    XCTAssertEqual(subscriber.events, [.subscription("WithLatestFrom"), .value("1+1")])
  }

  func test_cancelInsideReceive_stopsEverything() {
    let upstream = Source()
    let other = Source()
    let subscriber = TestSubscriber<String, TestError>()
    subscriber.onValue = { [unowned subscriber] _ in
      subscriber.cancel()
      return .none
    }
    upstream.withLatestFrom(other, resultSelector: pair).subscribe(subscriber)
    other.send(1)
    upstream.send(1)
    upstream.send(2)
    other.send(completion: .failure(TestError("late")))

    XCTAssertEqual(subscriber.events, [.subscription("WithLatestFrom"), .value("1+1")])
    XCTAssertTrue(upstream.isCancelled)
    XCTAssertTrue(other.isCancelled)
  }

  func test_cancelDuringReceiveSubscription_subscribesToNeitherInput() {
    let upstream = Source()
    let other = Source()
    let subscriber = TestSubscriber<String, TestError>(initialDemand: .none)
    subscriber.onSubscription = { $0.cancel() }
    upstream.withLatestFrom(other, resultSelector: pair).subscribe(subscriber)
    XCTAssertEqual(upstream.subscriptionCount, 0)
    XCTAssertEqual(other.subscriptionCount, 0)
  }

  // MARK: Two and three others

  func test_twoOthers_dropUntilBothHaveValues() {
    let upstream = Source()
    let first = Source()
    let second = Source()
    let subscriber = TestSubscriber<(Int, Int, Int), TestError>()
    upstream.withLatestFrom(first, second).subscribe(subscriber)

    first.send(1)
    upstream.send(100)  // dropped: second has nothing
    second.send(2)
    upstream.send(101)
    first.send(3)
    upstream.send(102)

    XCTAssertEqual(
      subscriber.eventDescriptions,
      ["subscription(WithLatestFrom)", "value((101, 1, 2))", "value((102, 3, 2))"])
    XCTAssertEqual(first.demands, [.unlimited])
    XCTAssertEqual(second.demands, [.unlimited])
  }

  func test_twoOthers_withResultSelector_andFailureOfEither() {
    let upstream = Source()
    let first = Source()
    let second = Source()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.withLatestFrom(first, second) { $0 + $1 + $2 }.subscribe(subscriber)
    first.send(10)
    second.send(20)
    upstream.send(1)
    second.send(completion: .failure(TestError("second")))

    XCTAssertEqual(
      subscriber.events,
      [.subscription("WithLatestFrom"), .value(31), .completion(.failure(TestError("second")))])
    XCTAssertTrue(upstream.isCancelled)
    XCTAssertTrue(first.isCancelled)
  }

  func test_threeOthers_dropUntilAllHaveValues() {
    let upstream = Source()
    let a = Source()
    let b = Source()
    let c = Source()
    let subscriber = TestSubscriber<(Int, Int, Int, Int), TestError>()
    upstream.withLatestFrom(a, b, c).subscribe(subscriber)
    a.send(1)
    b.send(2)
    upstream.send(100)  // dropped: c has nothing
    c.send(3)
    upstream.send(101)
    upstream.send(completion: .finished)

    XCTAssertEqual(
      subscriber.eventDescriptions,
      ["subscription(WithLatestFrom)", "value((101, 1, 2, 3))", "completion(finished)"])
    XCTAssertTrue(a.isCancelled)
    XCTAssertTrue(b.isCancelled)
    XCTAssertTrue(c.isCancelled)
  }

  func test_threeOthers_withResultSelector() {
    let upstream = Source()
    let a = Source()
    let b = Source()
    let c = Source()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.withLatestFrom(a, b, c) { $0 * 1000 + $1 * 100 + $2 * 10 + $3 }.subscribe(subscriber)
    a.send(1)
    b.send(2)
    c.send(3)
    upstream.send(4)
    c.send(5)
    upstream.send(6)
    XCTAssertEqual(subscriber.values, [4123, 6125])
  }

  // MARK: Lifetimes

  func test_lifetime_downstreamCancelFreesEverything() {
    let tracker = LifetimeTracker()
    let upstream = Source()
    let other = ManualPublisher<TrackedValue, TestError>()
    let subscriber = TestSubscriber<String, TestError>()
    subscribeTracked(upstream, other, subscriber, tracker)
    weak let subscription = subscriber.subscription as AnyObject?

    subscriber.cancel()

    XCTAssertTrue(upstream.isCancelled)
    XCTAssertTrue(other.isCancelled)
    XCTAssertFalse(upstream.hasSubscriber)
    XCTAssertFalse(other.hasSubscriber)
    XCTAssertNil(subscription)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_lifetime_endingReleasesValueAndSelector_evenWhileSomeoneHoldsTheSubscription() {
    for ending in ["cancel", "finish", "fail", "otherFails"] {
      let tracker = LifetimeTracker()
      let upstream = Source()
      let other = ManualPublisher<TrackedValue, TestError>()
      let subscriber = TestSubscriber<String, TestError>()
      subscribeTracked(upstream, other, subscriber, tracker)
      let held = subscriber.subscription

      switch ending {
      case "cancel": subscriber.cancel()
      case "finish": upstream.send(completion: .finished)
      case "fail": upstream.send(completion: .failure(TestError("up")))
      default: other.send(completion: .failure(TestError("other")))
      }

      XCTAssertNotNil(held)
      XCTAssertEqual(tracker.liveCount, 0, "\(ending): the latest value or the selector is still held")
    }
  }

  func test_lifetime_cancelInsideReceiveFreesEverything() {
    let tracker = LifetimeTracker()
    let upstream = Source()
    let other = ManualPublisher<TrackedValue, TestError>()
    let subscriber = TestSubscriber<String, TestError>()
    subscriber.onValue = { [unowned subscriber] _ in
      subscriber.cancel()
      return .none
    }
    subscribeTracked(upstream, other, subscriber, tracker, sendUpstream: false)
    weak let subscription = subscriber.subscription as AnyObject?

    upstream.send(1)

    XCTAssertEqual(subscriber.values.count, 1)
    XCTAssertNil(subscription)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_lifetime_upstreamFinishingFreesEverything() {
    let tracker = LifetimeTracker()
    let upstream = Source()
    let other = ManualPublisher<TrackedValue, TestError>()
    let subscriber = TestSubscriber<String, TestError>()
    subscribeTracked(upstream, other, subscriber, tracker)
    weak let subscription = subscriber.subscription as AnyObject?

    upstream.send(completion: .finished)

    XCTAssertEqual(subscriber.completion, .finished)
    XCTAssertTrue(other.isCancelled)
    XCTAssertFalse(other.hasSubscriber)
    XCTAssertNil(subscription)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_lifetime_upstreamFailingFreesEverything() {
    let tracker = LifetimeTracker()
    let upstream = Source()
    let other = ManualPublisher<TrackedValue, TestError>()
    let subscriber = TestSubscriber<String, TestError>()
    subscribeTracked(upstream, other, subscriber, tracker)
    weak let subscription = subscriber.subscription as AnyObject?

    upstream.send(completion: .failure(TestError("up")))

    XCTAssertEqual(subscriber.completion, .failure(TestError("up")))
    XCTAssertFalse(other.hasSubscriber)
    XCTAssertNil(subscription)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_lifetime_otherFailingFreesEverything() {
    let tracker = LifetimeTracker()
    let upstream = Source()
    let other = ManualPublisher<TrackedValue, TestError>()
    let subscriber = TestSubscriber<String, TestError>()
    subscribeTracked(upstream, other, subscriber, tracker)
    weak let subscription = subscriber.subscription as AnyObject?

    other.send(completion: .failure(TestError("other")))

    XCTAssertEqual(subscriber.completion, .failure(TestError("other")))
    XCTAssertTrue(upstream.isCancelled)
    XCTAssertFalse(upstream.hasSubscriber)
    XCTAssertNil(subscription)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_lifetime_otherFinishingThenUpstreamFinishingFreesEverything() {
    let tracker = LifetimeTracker()
    let upstream = Source()
    let other = ManualPublisher<TrackedValue, TestError>()
    let subscriber = TestSubscriber<String, TestError>()
    subscribeTracked(upstream, other, subscriber, tracker)
    weak let subscription = subscriber.subscription as AnyObject?

    other.send(completion: .finished)
    XCTAssertFalse(other.hasSubscriber)
    XCTAssertEqual(tracker.liveCount, 2, "the latest value and the selector are still needed")
    upstream.send(completion: .finished)

    XCTAssertNil(subscription)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  func test_lifetime_failureParkedDuringReceiveFreesEverything() {
    let tracker = LifetimeTracker()
    let upstream = Source()
    let other = ManualPublisher<TrackedValue, TestError>()
    let subscriber = TestSubscriber<String, TestError>()
    subscriber.onValue = { _ in
      other.send(completion: .failure(TestError("parked")))
      return .none
    }
    subscribeTracked(upstream, other, subscriber, tracker, sendUpstream: false)
    weak let subscription = subscriber.subscription as AnyObject?

    upstream.send(1)

    XCTAssertEqual(subscriber.completion, .failure(TestError("parked")))
    XCTAssertNil(subscription)
    XCTAssertEqual(tracker.liveCount, 0)
  }

  /// Subscribes `subscriber` to `upstream.withLatestFrom(other)` with a selector that captures
  /// a tracked probe, gives `other` a tracked value and (unless told not to) lets upstream
  /// publish once. The publisher value itself is not kept.
  private func subscribeTracked(
    _ upstream: Source, _ other: ManualPublisher<TrackedValue, TestError>,
    _ subscriber: TestSubscriber<String, TestError>, _ tracker: LifetimeTracker, sendUpstream: Bool = true
  ) {
    do {
      let probe = tracker.make()
      upstream
        .withLatestFrom(other) { value, latest in "\(value)+\(latest.value)+\(probe.id)" }
        .subscribe(subscriber)
    }
    other.send(TrackedValue(7, tracker))
    if sendUpstream {
      upstream.send(1)
      XCTAssertEqual(subscriber.values, ["1+7+1"])
    }
    XCTAssertEqual(tracker.liveCount, 2)
  }

}
