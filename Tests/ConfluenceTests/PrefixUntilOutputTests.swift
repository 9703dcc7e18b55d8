import Confluence
import ConfluenceTesting
import XCTest

/// `prefix(untilOutputFrom:)` as Apple's operator behaves (it is not the mirror image of
/// `drop(untilOutputFrom:)`; the rules the two share are in `UntilOutputFamilyRulesTests`).
final class PrefixUntilOutputTests: XCTestCase {
  func test_republishesUntilTheOtherEmits_thenCancelsUpstreamAndFinishes() {
    let upstream = ManualPublisher<Int, TestError>()
    let trigger = ManualPublisher<Bool, Never>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
    upstream.send(1)
    upstream.send(2)
    trigger.send(true)
    upstream.send(3)
    XCTAssertEqual(shape(subscriber.events), ["subscription", "value(1)", "value(2)", "completion(finished)"])
    XCTAssertEqual(upstream.cancels, 1)
    XCTAssertEqual(trigger.requested, [.max(1)])
    XCTAssertEqual(trigger.cancels, 0, "the other's subscription is never cancelled")
  }

  // A "stop when this fires" that never fires must not stop the stream.
  func test_theOtherFinishingWithoutAValue_changesNothing() {
    let (upstream, other, subscriber, subscription, otherSubscription) = attached()
    other.send(completion: .finished)
    XCTAssertEqual(upstream.send(1), .none)
    XCTAssertEqual(upstream.send(2), .none)
    XCTAssertEqual(shape(subscriber.events), ["subscription", "value(1)", "value(2)"])
    XCTAssertEqual(subscription.events, [.requested(.unlimited)], "upstream is not cancelled")
    XCTAssertEqual(otherSubscription.events, [.requested(.max(1))], "nor is the other")
    upstream.send(completion: .finished)
    XCTAssertEqual(shape(subscriber.events), ["subscription", "value(1)", "value(2)", "completion(finished)"])
  }

  func test_theOtherFailingWithoutAValue_changesNothing() {
    let upstream = DetachedUpstream<Int, Never>()
    let other = DetachedUpstream<Void, TestError>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.prefix(untilOutputFrom: other).subscribe(subscriber)
    let otherSubscription = other.attach()
    let subscription = upstream.attach()
    other.send(completion: .failure(TestError("ignored")))
    XCTAssertEqual(upstream.send(1), .none)
    XCTAssertEqual(shape(subscriber.events), ["subscription", "value(1)"])
    XCTAssertEqual(subscription.events, [.requested(.unlimited)])
    XCTAssertEqual(otherSubscription.events, [.requested(.max(1))])
  }

  func test_subscribesToTheOtherFirst_askingForOneValue_thenToUpstream() {
    var order: [String] = []
    let upstream = DetachedUpstream<Int, TestError>()
    let other = DetachedUpstream<Void, Never>()
    let subscriber = TestSubscriber<Int, TestError>()
    Deferred { () -> DetachedUpstream<Int, TestError> in
      order.append("upstream")
      return upstream
    }
    .prefix(
      untilOutputFrom: Deferred { () -> DetachedUpstream<Void, Never> in
        order.append("other")
        return other
      }
    )
    .subscribe(subscriber)
    XCTAssertEqual(order, ["other", "upstream"])
    XCTAssertEqual(other.attach().events, [.requested(.max(1))])
  }

  func test_downstreamReceivesItsSubscription_onlyWhenUpstreamsArrives() {
    let upstream = DetachedUpstream<Int, TestError>()
    let other = DetachedUpstream<Void, Never>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2))
    upstream.prefix(untilOutputFrom: other).subscribe(subscriber)
    XCTAssertTrue(subscriber.events.isEmpty)
    _ = other.attach()
    XCTAssertTrue(subscriber.events.isEmpty, "the other's subscription is not the one the downstream waits for")
    let subscription = upstream.attach()
    XCTAssertEqual(shape(subscriber.events), ["subscription"])
    XCTAssertEqual(subscription.events, [.requested(.max(2))], "the downstream's request goes straight upstream")
  }

  // Effect libraries arm a cancellation in `handleEvents(receiveSubscription:)`: by then
  // both the trigger and upstream must be live, as with Apple's operator.
  func test_deferredJust_whoseReceiveSubscriptionArmsTheTrigger_delivers42() {
    let cancellations = PassthroughSubject<Void, Never>()
    var triggerIsLive = false
    var upstreamIsLive = false
    var armed: (trigger: Bool, upstream: Bool)?
    var cancelEffect: (() -> Void)?
    var values: [Int] = []
    var completion: Subscribers.Completion<Never>?
    let effect = Deferred { Just(42).handleEvents(receiveSubscription: { _ in upstreamIsLive = true }) }
      .prefix(untilOutputFrom: cancellations.handleEvents(receiveSubscription: { _ in triggerIsLive = true }))
      .handleEvents(receiveSubscription: { _ in
        armed = (triggerIsLive, upstreamIsLive)
        cancelEffect = { cancellations.send() }
      })
    let token = effect.sink(receiveCompletion: { completion = $0 }, receiveValue: { values.append($0) })
    XCTAssertEqual(values, [42])
    XCTAssertEqual(completion, .finished)
    XCTAssertEqual(armed?.trigger, true, "the trigger is subscribed before the downstream starts")
    XCTAssertEqual(armed?.upstream, true, "and so is upstream")
    cancelEffect?()
    XCTAssertEqual(values, [42], "a cancel after the end changes nothing")
    withExtendedLifetime(token) {}
  }

  func test_theOthersValue_cancelsUpstream_thenFinishes_neverCancelsTheOther() {
    let (upstream, other, subscriber, subscription, otherSubscription) = attached()
    var order: [String] = []
    subscription.onCancel = { order.append("upstream cancelled") }
    otherSubscription.onCancel = { order.append("other cancelled") }
    subscriber.onCompletion = { _ in order.append("finished") }
    XCTAssertEqual(other.send(()), .none)
    XCTAssertEqual(order, ["upstream cancelled", "finished"])
    XCTAssertEqual(otherSubscription.events, [.requested(.max(1))])
    withExtendedLifetime(upstream) {}
  }

  // Deliberately beyond Apple's record: once nothing can observe the operator (it is
  // freed), the other's subscription it never cancelled is cancelled, so that the other
  // publisher does not keep what it holds for a subscriber nobody has.
  func test_theOthersSubscription_isCancelledOnlyOnceTheOperatorIsFreed() {
    let other = DetachedUpstream<Void, Never>()
    let upstream = PassthroughSubject<Int, Never>()
    let downstream = ReleasingSubscriber()
    var operatorSubscription: Subscription?
    downstream.onSubscription = { operatorSubscription = $0 }
    upstream.prefix(untilOutputFrom: other).subscribe(downstream)
    let otherSubscription = other.attach()
    other.send(())
    XCTAssertTrue(downstream.ended)
    XCTAssertEqual(otherSubscription.events, [.requested(.max(1))], "not while the operator lives")
    operatorSubscription = nil
    XCTAssertEqual(otherSubscription.events, [.requested(.max(1)), .cancelled])
    withExtendedLifetime(operatorSubscription) {}
  }

  // A cold trigger with more to send keeps itself (and what it holds) until it is
  // cancelled: the operator, freed once the stream ended, ends it.
  func test_aColdTriggerWithMoreToSend_isNotKeptOnceTheStreamEnded() {
    let tracker = LifetimeTracker()
    var completion: Subscribers.Completion<Never>?
    let token = Empty<Int, Never>(completeImmediately: false)
      .prefix(untilOutputFrom: [tracker.make(), tracker.make()].publisher.append(tracker.make()))
      .sink(receiveCompletion: { completion = $0 }, receiveValue: { _ in })
    XCTAssertEqual(completion, .finished)
    XCTAssertEqual(tracker.liveCount, 0)
    withExtendedLifetime(token) {}
  }

  func test_eventsAfterTheOtherFired_goNowhere_andLateSubscriptionsAreCancelled() {
    let (upstream, other, subscriber, subscription, otherSubscription) = attached()
    other.send(())
    XCTAssertEqual(upstream.send(1), .none)
    upstream.send(completion: .failure(TestError()))
    other.send(completion: .finished)
    let late = upstream.attach()
    let lateOther = other.attach()
    subscriber.subscription?.request(.max(1))
    subscriber.subscription?.cancel()
    XCTAssertEqual(shape(subscriber.events), ["subscription", "completion(finished)"])
    XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled])
    XCTAssertEqual(otherSubscription.events, [.requested(.max(1))])
    XCTAssertEqual(late.events, [.cancelled])
    XCTAssertEqual(lateOther.events, [.cancelled])
  }

  // Apple's operator sends the completion at once, to a downstream that has no
  // subscription yet; Confluence hands it its (ended) subscription first, so that every
  // subscriber gets its subscription before anything else (Tests/ConformanceNotes.md).
  func test_theOthersValueBeforeUpstreamsSubscription_finishesAtOnce_andCancelsUpstreamsSubscriptionWhenItComes() {
    let upstream = DetachedUpstream<Int, TestError>()
    let other = DetachedUpstream<Void, Never>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.prefix(untilOutputFrom: other).subscribe(subscriber)
    let otherSubscription = other.attach()
    XCTAssertEqual(other.send(()), .none)
    XCTAssertEqual(shape(subscriber.events), ["subscription", "completion(finished)"])
    let subscription = upstream.attach()
    XCTAssertEqual(subscription.events, [.cancelled])
    XCTAssertEqual(upstream.send(1), .none)
    XCTAssertEqual(shape(subscriber.events), ["subscription", "completion(finished)"])
    XCTAssertEqual(otherSubscription.events, [.requested(.max(1))])
    XCTAssertTrue(subscriber.violations.isEmpty)
  }

  func test_theOtherFiringAsItIsSubscribed_finishesBeforeUpstreamIsAskedForAnything() {
    let upstream = DetachedUpstream<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    upstream.prefix(untilOutputFrom: Just(())).subscribe(subscriber)
    XCTAssertEqual(shape(subscriber.events), ["subscription", "completion(finished)"])
    XCTAssertEqual(upstream.attach().events, [.cancelled])
  }

  func test_upstreamsEventsBeforeItsSubscription_areIgnored() {
    let upstream = DetachedUpstream<Int, TestError>()
    let other = DetachedUpstream<Void, Never>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.prefix(untilOutputFrom: other).subscribe(subscriber)
    _ = other.attach()
    XCTAssertEqual(upstream.send(1), .none)
    upstream.send(completion: .finished)
    XCTAssertTrue(subscriber.events.isEmpty)
    _ = upstream.attach()
    XCTAssertEqual(upstream.send(2), .none)
    XCTAssertEqual(shape(subscriber.events), ["subscription", "value(2)"])
  }

  func test_theOthersEventsBeforeItsSubscription_areIgnored() {
    let upstream = DetachedUpstream<Int, TestError>()
    let other = DetachedUpstream<Void, Never>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.prefix(untilOutputFrom: other).subscribe(subscriber)
    _ = upstream.attach()
    XCTAssertEqual(other.send(()), .none)
    other.send(completion: .finished)
    XCTAssertEqual(upstream.send(1), .none)
    XCTAssertEqual(shape(subscriber.events), ["subscription", "value(1)"])
    XCTAssertEqual(other.attach().events, [.requested(.max(1))], "its subscription is still accepted")
    other.send(())
    XCTAssertEqual(shape(subscriber.events), ["subscription", "value(1)", "completion(finished)"])
  }

  func test_upstreamCompletion_isPassedOnOnce_theOtherIsNotCancelled() {
    let (upstream, other, subscriber, _, otherSubscription) = attached()
    XCTAssertEqual(upstream.send(1), .none)
    upstream.send(completion: .failure(TestError()))
    upstream.send(completion: .finished)
    XCTAssertEqual(shape(subscriber.events), ["subscription", "value(1)", "completion(failure(\(TestError())))"])
    XCTAssertEqual(otherSubscription.events, [.requested(.max(1))])
    XCTAssertEqual(upstream.attach().events, [.cancelled], "it has ended: a later subscription is cancelled")
    XCTAssertEqual(other.send(()), .none)
    XCTAssertEqual(subscriber.events.count, 3)
  }

  // The other's value may already be on its way on another thread when upstream
  // completes; arriving after the completion, it must not finish again.
  func test_theOthersValueAfterUpstreamCompleted_goesNowhere() {
    let (upstream, other, subscriber, subscription, otherSubscription) = attached()
    upstream.send(completion: .finished)
    XCTAssertEqual(other.send(()), .none)
    XCTAssertEqual(shape(subscriber.events), ["subscription", "completion(finished)"])
    XCTAssertEqual(otherSubscription.events, [.requested(.max(1))])
    XCTAssertEqual(subscription.events, [.requested(.unlimited)], "upstream has completed: nothing to cancel")
  }

  func test_cancel_cancelsUpstream_neverTheOther() {
    let (upstream, other, subscriber, subscription, otherSubscription) = attached()
    subscriber.cancel()
    XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled])
    XCTAssertEqual(otherSubscription.events, [.requested(.max(1))])
    XCTAssertEqual(other.send(()), .none)
    XCTAssertEqual(upstream.send(1), .none)
    XCTAssertEqual(shape(subscriber.events), ["subscription"])
  }

  func test_aSecondSubscriptionFromEitherSource_isCancelled() {
    let (upstream, other, subscriber, subscription, otherSubscription) = attached()
    XCTAssertEqual(upstream.attach().events, [.cancelled])
    XCTAssertEqual(other.attach().events, [.cancelled])
    XCTAssertEqual(shape(subscriber.events), ["subscription"], "no second subscription downstream")
    XCTAssertEqual(subscription.events, [.requested(.unlimited)])
    XCTAssertEqual(otherSubscription.events, [.requested(.max(1))])
  }

  func test_reflection_noCustomDescriptionOrMirror_oneIdentity() throws {
    let upstream = DetachedUpstream<Int, TestError>()
    let other = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.prefix(untilOutputFrom: other).subscribe(subscriber)
    _ = upstream.attach()
    let subscription: Any = try XCTUnwrap(subscriber.subscription)
    for (role, object) in [
      ("subscriber", upstream.operatorSubscriber), ("subscription", subscription),
      ("the other's subscriber", other.operatorSubscriber),
    ] {
      XCTAssertFalse(object is CustomStringConvertible, role)
      XCTAssertFalse(object is CustomReflectable, role)
      XCTAssertFalse(object is CustomPlaygroundDisplayConvertible, role)
      XCTAssertFalse(object is CustomDebugStringConvertible, role)
    }
    XCTAssertTrue(String(describing: subscription).contains("PrefixUntilOutput"))
    XCTAssertEqual(
      (upstream.operatorSubscriber as? CustomCombineIdentifierConvertible)?.combineIdentifier,
      (other.operatorSubscriber as? CustomCombineIdentifierConvertible)?.combineIdentifier)
  }

  func test_demandPassesThrough() {
    let upstream = ManualPublisher<Int, Never>()
    let trigger = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
    upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
    subscriber.request(.max(2))
    XCTAssertEqual(upstream.requested, [.max(3), .max(2)])
  }

  func test_triggerFiringWhileDelivering_finishesAfterTheValue() {
    let upstream = ManualPublisher<Int, Never>()
    let trigger = ManualPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.onValue = { _ in
      trigger.send(0)
      return .none
    }
    upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
    upstream.send(1)
    XCTAssertEqual(shape(subscriber.events), ["subscription", "value(1)", "completion(finished)"])
  }

  func test_synchronousUpstream_finishesNormally() {
    let subscriber = TestSubscriber<Int, Never>()
    (1...3).publisher.prefix(untilOutputFrom: ManualPublisher<Int, Never>()).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2, 3])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  // The other's subscription is never cancelled, so a live other publisher keeps the
  // subscriber the operator gave it; that subscriber lets go of the operator once it ended.
  func test_aLiveOtherPublisher_doesNotKeepTheEndedChain() {
    let other = PassthroughSubject<Void, Never>()
    for end in ["the other's value", "upstream's completion", "cancel"] {
      let upstream = PassthroughSubject<Int, Never>()
      var downstream: ReleasingSubscriber? = ReleasingSubscriber()
      weak let released = downstream
      upstream.prefix(untilOutputFrom: other).subscribe(downstream!)
      switch end {
      case "the other's value": other.send()
      case "upstream's completion": upstream.send(completion: .finished)
      default: downstream?.cancel()
      }
      XCTAssertEqual(downstream?.ended, true, end)
      downstream = nil
      XCTAssertNil(released, "after \(end)")
    }
  }

  /// `upstream.prefix(untilOutputFrom: other)` subscribed by a test subscriber, with the
  /// other's subscription handed over first, then upstream's (as the operator subscribes).
  private func attached() -> (
    upstream: DetachedUpstream<Int, TestError>, other: DetachedUpstream<Void, Never>,
    subscriber: TestSubscriber<Int, TestError>, subscription: RecordingSubscription,
    otherSubscription: RecordingSubscription
  ) {
    let upstream = DetachedUpstream<Int, TestError>()
    let other = DetachedUpstream<Void, Never>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.prefix(untilOutputFrom: other).subscribe(subscriber)
    let otherSubscription = other.attach()
    let subscription = upstream.attach()
    return (upstream, other, subscriber, subscription, otherSubscription)
  }
}

/// The events with the subscription shown as `subscription`: `prefix(untilOutputFrom:)`'s
/// subscription has no description of its own, so it prints as its type.
private func shape<Input, Failure: Error>(_ events: [TestSubscriber<Input, Failure>.Event]) -> [String] {
  events.map { event in
    if case .subscription = event { return "subscription" }
    return event.description
  }
}

/// A subscriber that lets go of its subscription when it completes or cancels, as a sink
/// does, so that only what the operator keeps can keep it.
private final class ReleasingSubscriber: Subscriber {
  typealias Input = Int
  typealias Failure = Never
  private var subscription: Subscription?
  private(set) var ended = false
  var onSubscription: ((Subscription) -> Void)?

  func receive(subscription: Subscription) {
    self.subscription = subscription
    onSubscription?(subscription)
    subscription.request(.unlimited)
  }

  func receive(_ input: Int) -> Subscribers.Demand { .none }

  func receive(completion: Subscribers.Completion<Never>) {
    ended = true
    subscription = nil
  }

  func cancel() {
    ended = true
    subscription.take()?.cancel()
  }
}
