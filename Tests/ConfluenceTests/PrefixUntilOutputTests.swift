import Confluence
import ConfluenceTesting
import XCTest

final class PrefixUntilOutputTests: XCTestCase {
  func test_republishesUntilTheOtherPublisherEmits_thenCancelsUpstreamAndTheOther() {
    let upstream = ManualPublisher<Int, TestError>()
    let trigger = ManualPublisher<Bool, Never>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
    upstream.send(1)
    upstream.send(2)
    trigger.send(true)
    upstream.send(3)
    XCTAssertEqual(
      subscriber.events, [.subscription("PrefixUntilOutput"), .value(1), .value(2), .completion(.finished)])
    XCTAssertEqual(upstream.cancels, 1)
    XCTAssertEqual(trigger.cancels, 1, "nothing more can happen: the other is cancelled too")
  }

  func test_triggerCompletion_isIgnored() {
    let upstream = ManualPublisher<Int, TestError>()
    let trigger = ManualPublisher<Bool, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
    trigger.fail(TestError("ignored"))
    upstream.send(1)
    upstream.finish()
    XCTAssertEqual(subscriber.events, [.subscription("PrefixUntilOutput"), .value(1), .completion(.finished)])
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
      trigger.send(0); return .none
    }
    upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
    upstream.send(1)
    XCTAssertEqual(subscriber.events, [.subscription("PrefixUntilOutput"), .value(1), .completion(.finished)])
  }

  func test_synchronousUpstream_finishesNormally() {
    let subscriber = TestSubscriber<Int, Never>()
    (1...3).publisher.prefix(untilOutputFrom: ManualPublisher<Int, Never>()).subscribe(subscriber)
    XCTAssertEqual(subscriber.values, [1, 2, 3])
    XCTAssertEqual(subscriber.completion, .finished)
  }

  func test_eventsAfterTheOtherFired_goNowhere_andALateSubscriptionIsCancelled() {
    // Upstream is cancelled first, then the other, then the downstream finishes.
    let (upstream, other, subscriber, subscription, otherSubscription) = attached()
    other.send(())
    XCTAssertEqual(upstream.send(1), .none)
    upstream.send(completion: .failure(TestError()))
    let late = upstream.attach()
    subscriber.subscription?.request(.max(1))
    XCTAssertEqual(subscriber.events, [.subscription("PrefixUntilOutput"), .completion(.finished)])
    XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled])
    XCTAssertEqual(otherSubscription.events, [.requested(.max(1)), .cancelled])
    XCTAssertEqual(late.events, [.cancelled])
  }

  func test_upstreamCompletion_cancelsTheOther_andIsPassedOn() {
    let (upstream, _, subscriber, _, otherSubscription) = attached()
    XCTAssertEqual(upstream.send(1), .none)
    upstream.send(completion: .failure(TestError()))
    XCTAssertEqual(
      subscriber.events, [.subscription("PrefixUntilOutput"), .value(1), .completion(.failure(TestError()))])
    XCTAssertEqual(otherSubscription.events, [.requested(.max(1)), .cancelled])
  }

  // The other's value may already be on its way on another thread when upstream's
  // completion cancels it; arriving after the completion, it must not finish again.
  func test_theOthersValueAfterUpstreamCompleted_goesNowhere() {
    let (upstream, other, subscriber, subscription, otherSubscription) = attached()
    upstream.send(completion: .finished)
    XCTAssertEqual(other.send(()), .none)
    XCTAssertEqual(subscriber.events, [.subscription("PrefixUntilOutput"), .completion(.finished)])
    XCTAssertEqual(otherSubscription.events, [.requested(.max(1)), .cancelled])
    XCTAssertEqual(subscription.events, [.requested(.unlimited)], "upstream has completed: nothing to cancel")
  }

  // As drop(untilOutputFrom:)'s: the other's subscription is kept (a second one is
  // cancelled) and cancelled when upstream completes.
  func test_theOthersCompletion_changesNothing() {
    let upstream = DetachedUpstream<Int, TestError>()
    let other = DetachedUpstream<Void, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    upstream.prefix(untilOutputFrom: other).subscribe(subscriber)
    let first = other.attach()
    other.send(completion: .failure(TestError()))
    let second = other.attach()
    _ = upstream.attach()
    XCTAssertEqual(upstream.send(1), .none)
    upstream.send(completion: .finished)
    XCTAssertEqual(first.events, [.requested(.max(1)), .cancelled])
    XCTAssertEqual(second.events, [.cancelled])
    XCTAssertEqual(subscriber.events, [.subscription("PrefixUntilOutput"), .value(1), .completion(.finished)])
  }

  func test_theOthersValue_cancelsUpstream_thenTheOther_thenFinishes() {
    let upstream = DetachedUpstream<Int, TestError>()
    let other = DetachedUpstream<Void, Never>()
    let subscriber = TestSubscriber<Int, TestError>()
    var order: [String] = []
    subscriber.onCompletion = { _ in order.append("finished") }
    upstream.prefix(untilOutputFrom: other).subscribe(subscriber)
    let otherSubscription = other.attach()
    otherSubscription.onCancel = { order.append("other cancelled") }
    let subscription = upstream.attach()
    subscription.onCancel = { order.append("upstream cancelled") }
    _ = other.send(())
    XCTAssertEqual(order, ["upstream cancelled", "other cancelled", "finished"])
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
