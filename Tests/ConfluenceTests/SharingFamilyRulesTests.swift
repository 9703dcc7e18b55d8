import Confluence
import ConfluenceTesting
import XCTest

/// Rules Apple gives `multicast`, `makeConnectable`, `autoconnect` and `share`: what sits
/// between the subject and each subscriber, how demand travels, and how connections are
/// counted.
final class SharingFamilyRulesTests: XCTestCase {
  /// A subject that keeps the subscriber it is given and hands it a recording subscription,
  /// so a test can drive the multicast's per-subscriber relay by hand.
  private final class HandDrivenSubject: Subject {
    typealias Output = Int
    typealias Failure = TestError
    let subscription = RecordingSubscription()
    var subscriber: AnySubscriber<Int, TestError>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
      self.subscriber = AnySubscriber(subscriber)
      subscriber.receive(subscription: subscription)
    }
    func send(_ value: Int) { _ = subscriber?.receive(value) }
    func send(completion: Subscribers.Completion<TestError>) { subscriber?.receive(completion: completion) }
    func send(subscription: Subscription) {}
  }

  /// A connectable publisher that records each connect and each disconnect.
  private final class CountingConnectable: ConnectablePublisher {
    typealias Output = Int
    typealias Failure = TestError
    let upstream = DetachedUpstream<Int, TestError>()
    private(set) var log: [String] = []

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
      upstream.receive(subscriber: subscriber)
      upstream.attach(shared)
    }
    let shared = RecordingSubscription()

    func connect() -> Cancellable {
      log.append("connect")
      return Connection { [weak self] in self?.log.append("disconnect") }
    }
  }

  /// A connection that, unlike `AnyCancellable`, does nothing when released.
  private final class Connection: Cancellable {
    let onCancel: () -> Void
    init(_ onCancel: @escaping () -> Void) { self.onCancel = onCancel }
    func cancel() { onCancel() }
  }

  // MARK: Multicast

  func test_multicast_givesEachSubscriberItsOwnRelay_describedAsMulticast() {
    let subject = PassthroughSubject<Int, Never>()
    let multicast = Empty<Int, Never>(completeImmediately: false).multicast(subject: subject)
    let first = TestSubscriber<Int, Never>()
    let second = TestSubscriber<Int, Never>()
    multicast.subscribe(first)
    multicast.subscribe(second)
    XCTAssertEqual(first.subscriptionDescription, "Multicast")
    XCTAssertNotEqual(
      first.subscription?.combineIdentifier, second.subscription?.combineIdentifier, "one relay per subscriber")
    XCTAssertTrue(Mirror(reflecting: first.subscription!).children.isEmpty)
    XCTAssertEqual(
      (first.subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, "Multicast")
    XCTAssertEqual(
      String(describing: Publishers.MakeConnectable(upstream: Just(1)).subscribeCollecting()), "Multicast")
  }

  func test_multicastRelay_requestsReturnedDemandFromTheSubject_andReturnsNone() {
    let subject = HandDrivenSubject()
    let multicast = Empty<Int, TestError>(completeImmediately: false).multicast(subject: subject)
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(5))
    subscriber.onValue = { $0 < 0 ? .unlimited : .max($0) }
    multicast.subscribe(subscriber)
    let relay = subject.subscriber!
    XCTAssertEqual(relay.receive(0), .none)
    XCTAssertEqual(relay.receive(2), .none)
    XCTAssertEqual(relay.receive(-1), .none)
    XCTAssertEqual(relay.receive(3), .none)
    XCTAssertEqual(subscriber.values, [0, 2, -1, 3])
    // Up front, then each non-zero demand as it was returned — not summed, not capped.
    XCTAssertEqual(
      subject.subscription.events,
      [.requested(.max(5)), .requested(.max(2)), .requested(.unlimited), .requested(.max(3))])
  }

  func test_multicastRelayOverConfluencesSubjects_demandReturnedPerValueReachesTheSubject() {
    // Over Confluence's own subjects the relay returns the demand to the conduit instead of
    // requesting it: the effect must be the same as Apple's request.
    func run<S: Subject>(_ subject: S, demandPerValue: Subscribers.Demand) -> [Int]
    where S.Output == Int, S.Failure == Never {
      let upstream = PassthroughSubject<Int, Never>()
      let multicast = upstream.multicast(subject: subject)
      let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: demandPerValue)
      multicast.subscribe(subscriber)
      let connection = multicast.connect()
      for value in 1...5 { upstream.send(value) }
      connection.cancel()
      XCTAssertEqual(subscriber.violations, [])
      return subscriber.values
    }
    XCTAssertEqual(run(PassthroughSubject<Int, Never>(), demandPerValue: .max(1)), [1, 2, 3, 4, 5])
    XCTAssertEqual(run(PassthroughSubject<Int, Never>(), demandPerValue: .none), [1])
    XCTAssertEqual(run(CurrentValueSubject<Int, Never>(0), demandPerValue: .max(1)), [0, 1, 2, 3, 4, 5])
    XCTAssertEqual(run(CurrentValueSubject<Int, Never>(0), demandPerValue: .none), [0])
  }

  func test_multicastRelay_cancelsASecondSubscription() {
    let subject = HandDrivenSubject()
    Empty<Int, TestError>(completeImmediately: false).multicast(subject: subject)
      .subscribe(TestSubscriber<Int, TestError>(initialDemand: .none))
    let extra = RecordingSubscription()
    subject.subscriber!.receive(subscription: extra)
    XCTAssertEqual(extra.events, [.cancelled])
    XCTAssertEqual(subject.subscription.events, [], "the first subscription is kept")
  }

  func test_multicastRelay_deliversNothingAfterCompletionOrCancel() {
    let subject = HandDrivenSubject()
    let multicast = Empty<Int, TestError>(completeImmediately: false).multicast(subject: subject)
    let completed = TestSubscriber<Int, TestError>(initialDemand: .unlimited)
    multicast.subscribe(completed)
    let relay = subject.subscriber!
    relay.receive(completion: .failure(TestError("x")))
    relay.receive(completion: .finished)
    XCTAssertEqual(relay.receive(1), .none)
    XCTAssertEqual(completed.eventDescriptions, ["subscription(Multicast)", "completion(failure(x))"])

    let cancelling = TestSubscriber<Int, TestError>(initialDemand: .unlimited)
    multicast.subscribe(cancelling)
    let secondRelay = subject.subscriber!
    cancelling.cancel()
    cancelling.cancel()
    XCTAssertEqual(secondRelay.receive(1), .none)
    secondRelay.receive(completion: .finished)
    XCTAssertEqual(cancelling.eventDescriptions, ["subscription(Multicast)"])
    XCTAssertEqual(subject.subscription.events.filter { $0 == .cancelled }.count, 1, "cancel passed on once")
  }

  // MARK: Autoconnect

  func test_autoconnect_handsOnTheUpstreamSubscriptionsIdentity_andPassesEveryCancelOn() {
    let connectable = CountingConnectable()
    let auto = connectable.autoconnect()
    let first = TestSubscriber<Int, TestError>()
    var firstSubscription: Subscription?
    first.onSubscription = { firstSubscription = $0 }
    let second = TestSubscriber<Int, TestError>()
    auto.subscribe(first)
    auto.subscribe(second)
    XCTAssertEqual(connectable.log, ["connect"])
    XCTAssertEqual(first.subscription?.combineIdentifier, connectable.shared.combineIdentifier)
    XCTAssertEqual(first.subscriptionDescription, "Recording")
    XCTAssertEqual(firstSubscription.map { $0 is CustomReflectable }, false)
    first.cancel()
    XCTAssertEqual(connectable.log, ["connect"], "one subscriber left")
    // Cancelling the same subscription again reaches the upstream again but is counted once.
    firstSubscription?.cancel()
    XCTAssertEqual(connectable.log, ["connect"])
    second.cancel()
    XCTAssertEqual(connectable.log, ["connect", "disconnect"])
    XCTAssertEqual(connectable.shared.events.filter { $0 == .cancelled }.count, 3)
  }

  func test_autoconnect_subscriberMirrorShowsParentAndDownstream() {
    let connectable = CountingConnectable()
    connectable.autoconnect().subscribe(TestSubscriber<Int, TestError>())
    let inner = connectable.upstream.operatorSubscriber
    XCTAssertEqual(String(describing: inner), "Autoconnect")
    XCTAssertEqual(Mirror(reflecting: inner).children.map(\.label), ["parent", "downstream"])
  }

  func test_autoconnect_subscriberArrivingDuringTheFirstSubscription_connectsAgain() {
    let connectable = CountingConnectable()
    let auto = connectable.autoconnect()
    let inner = TestSubscriber<Int, TestError>()
    let outer = TestSubscriber<Int, TestError>()
    outer.onSubscription = { _ in auto.subscribe(inner) }
    auto.subscribe(outer)
    XCTAssertEqual(connectable.log, ["connect", "connect"])
    // The later connection is the one kept, counting one subscriber.
    outer.cancel()
    XCTAssertEqual(connectable.log, ["connect", "connect", "disconnect"])
    inner.cancel()
    XCTAssertEqual(connectable.log, ["connect", "connect", "disconnect"])
  }
}

private extension Publisher {
  /// The description of the subscription a subscriber to this publisher receives.
  func subscribeCollecting() -> String {
    let subscriber = TestSubscriber<Output, Failure>()
    subscribe(subscriber)
    return subscriber.subscriptionDescription ?? "none"
  }
}
