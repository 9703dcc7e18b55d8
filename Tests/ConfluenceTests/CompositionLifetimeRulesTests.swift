import Confluence
import ConfluenceTesting
import XCTest

/// Apple's rules for what the composing operators (`zip`, `combineLatest`,
/// `switchToLatest`, `retry`, `append`) keep after they end, and two rules of `retry` and
/// `append` about their subscribers.
///
/// The lifetime tests use a subscriber that keeps its subscription for good (as a
/// debugging or recording subscriber does). Where the operator keeps its downstream after
/// the end, the two keep each other alive once everything else is gone; where it lets
/// go, the subscriber is freed.
final class CompositionLifetimeRulesTests: XCTestCase {
  /// Keeps the subscription it receives until told to forget it.
  private final class HoldingSubscriber<Input, Failure: Error>: Subscriber {
    var subscription: Subscription?
    let initialDemand: Subscribers.Demand

    init(initialDemand: Subscribers.Demand = .unlimited) {
      self.initialDemand = initialDemand
    }

    func receive(subscription: Subscription) {
      self.subscription = subscription
      if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<Failure>) {}
  }

  private enum Ending: CaseIterable {
    case upstreamFails, upstreamFinishes, downstreamCancels
  }

  /// Subscribes a holding subscriber to what `make` builds over a fresh subject, ends the
  /// subscription as `ending` says, lets go of everything but a weak reference, and returns
  /// whether the subscriber is still alive (and then frees it by breaking the cycle).
  private func subscriberSurvives<P: Publisher>(
    _ ending: Ending,
    _ make: (PassthroughSubject<Int, TestError>) -> P
  ) -> Bool {
    weak var weakSubscriber: HoldingSubscriber<P.Output, P.Failure>?
    do {
      let subject = PassthroughSubject<Int, TestError>()
      let subscriber = HoldingSubscriber<P.Output, P.Failure>()
      weakSubscriber = subscriber
      make(subject).subscribe(subscriber)
      XCTAssertNotNil(subscriber.subscription)
      switch ending {
      case .upstreamFails: subject.send(completion: .failure(TestError()))
      case .upstreamFinishes: subject.send(completion: .finished)
      case .downstreamCancels: subscriber.subscription?.cancel()
      }
    }
    guard weakSubscriber != nil else { return false }
    weakSubscriber?.subscription = nil
    XCTAssertNil(weakSubscriber, "freed once the subscriber lets go of its subscription")
    return true
  }

  func test_zipAndCombineLatest_keepTheirDownstream_afterFailureAndCancel() {
    let other = PassthroughSubject<Int, TestError>()
    for ending in [Ending.upstreamFails, .downstreamCancels] {
      XCTAssertTrue(subscriberSurvives(ending) { $0.zip(other) }, "zip, \(ending)")
      XCTAssertTrue(subscriberSurvives(ending) { $0.zip(other, other) }, "zip3, \(ending)")
      XCTAssertTrue(subscriberSurvives(ending) { $0.zip(other, other, other) }, "zip4, \(ending)")
      XCTAssertTrue(subscriberSurvives(ending) { $0.combineLatest(other) }, "combineLatest, \(ending)")
    }
  }

  func test_switchToLatest_keepsItsDownstream_afterFailureAndCancel() {
    for ending in [Ending.upstreamFails, .downstreamCancels] {
      XCTAssertTrue(
        subscriberSurvives(ending) { $0.map { Just($0).setFailureType(to: TestError.self) }.switchToLatest() },
        "\(ending)")
    }
  }

  func test_retry_releasesItsDownstream_atTheEnd() {
    for ending in Ending.allCases {
      // A failed subject fails every new subscriber at once, so retry(2) uses its retries up
      // right away and then fails downstream.
      XCTAssertFalse(subscriberSurvives(ending) { $0.retry(2) }, "\(ending)")
    }
  }

  // MARK: retry's demand across attempts

  func test_retry_asksTheNextAttemptForWhatIsStillOwed_countingValuesBetweenAttempts() {
    let upstream = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3), demandPerValue: .max(2))
    upstream.retry(1).subscribe(subscriber)
    let first = upstream.attach()
    XCTAssertEqual(first.events, [.requested(.max(3))])
    upstream.send(completion: .failure(TestError()))
    // Retry has subscribed again; a value arrives before the new subscription does.
    XCTAssertEqual(upstream.send(1), .none, "downstream's demand for it is requested, not returned")
    XCTAssertEqual(subscriber.values, [1])
    let second = upstream.attach()
    XCTAssertEqual(second.events, [.requested(.max(4))], "3 asked - 1 delivered + 2 returned")
  }

  // MARK: append's subscribers

  func test_append_subscribesEachPublisherWithASubscriberOfItsOwnType_underDownstreamsIdentity() {
    let prefix = DetachedUpstream<Int, TestError>()
    let suffix = DetachedUpstream<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    prefix.append(suffix).subscribe(subscriber)
    prefix.attach()
    let subscription = try! XCTUnwrap(subscriber.subscription)
    let prefixSubscriber = prefix.operatorSubscriber
    prefix.send(completion: .finished)
    let suffixSubscriber = suffix.operatorSubscriber

    XCTAssertEqual(subscription.combineIdentifier, subscriber.combineIdentifier)
    XCTAssertEqual(
      (prefixSubscriber as? CustomCombineIdentifierConvertible)?.combineIdentifier, subscriber.combineIdentifier)
    XCTAssertEqual(
      (suffixSubscriber as? CustomCombineIdentifierConvertible)?.combineIdentifier, subscriber.combineIdentifier)
    XCTAssertFalse(type(of: subscription) == type(of: prefixSubscriber))
    XCTAssertFalse(type(of: subscription) == type(of: suffixSubscriber))
    XCTAssertFalse(type(of: prefixSubscriber) == type(of: suffixSubscriber))
  }
}
