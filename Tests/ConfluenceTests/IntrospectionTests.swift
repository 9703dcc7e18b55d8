import Confluence
import ConfluenceTesting
import XCTest

/// `_Introspection`, Apple's debugging hook: what `subscribe(_:)` reports while one is
/// enabled, and how watched subscribers report their events.
final class IntrospectionTests: XCTestCase {
  /// Records every hook call as text.
  private final class Recorder: _Introspection {
    var log: [String] = []

    func willReceive<P: Publisher, S: Subscriber>(publisher: P, subscriber: S)
    where P.Failure == S.Failure, P.Output == S.Input {
      log.append("willSubscribe \(subscriber)")
    }
    func didReceive<P: Publisher, S: Subscriber>(publisher: P, subscriber: S)
    where P.Failure == S.Failure, P.Output == S.Input {
      log.append("didSubscribe \(subscriber)")
    }
    func willReceive<S: Subscriber>(subscriber: S, subscription: Subscription) {
      log.append("willReceive subscription \(subscription)")
    }
    func didReceive<S: Subscriber>(subscriber: S, subscription: Subscription) {
      log.append("didReceive subscription \(subscription)")
    }
    func willReceive<S: Subscriber>(subscriber: S, input: S.Input) { log.append("willReceive \(input)") }
    func didReceive<S: Subscriber>(subscriber: S, input: S.Input, resultingDemand: Subscribers.Demand) {
      log.append("didReceive \(input) -> \(resultingDemand)")
    }
    func willReceive<S: Subscriber>(subscriber: S, completion: Subscribers.Completion<S.Failure>) {
      log.append("willReceive \(completion)")
    }
    func didReceive<S: Subscriber>(subscriber: S, completion: Subscribers.Completion<S.Failure>) {
      log.append("didReceive \(completion)")
    }
    func willRequest(subscription: Subscription, _ demand: Subscribers.Demand) { log.append("willRequest \(demand)") }
    func didRequest(subscription: Subscription, _ demand: Subscribers.Demand) { log.append("didRequest \(demand)") }
    func willCancel(subscription: Subscription) { log.append("willCancel") }
    func didCancel(subscription: Subscription) { log.append("didCancel") }
  }

  /// Hooks that are not implemented do nothing.
  private final class Silent: _Introspection {}

  func test_enableDisable_isEnabled() {
    let recorder = Recorder()
    let other = Silent()
    XCTAssertFalse(recorder.isEnabled)
    recorder.enable()
    recorder.enable()
    XCTAssertTrue(recorder.isEnabled)
    XCTAssertFalse(other.isEnabled)
    recorder.disable()
    XCTAssertFalse(recorder.isEnabled)
  }

  func test_subscribe_isReported_directReceiveIsNot() {
    let recorder = Recorder()
    recorder.enable()
    defer { recorder.disable() }
    Just(1).receive(subscriber: TestSubscriber<Int, Never>(initialDemand: .none))
    XCTAssertEqual(recorder.log, [])
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Just(1).subscribe(subscriber)
    XCTAssertEqual(
      recorder.log,
      [
        "willSubscribe TestSubscriber", "willReceive subscription Just", "didReceive subscription Just",
        "didSubscribe TestSubscriber",
      ])
  }

  /// `zip` and `combineLatest` join a `Just` they see without subscribing to it
  /// (`FanInJustSubscription`), unless an introspection watches: then it is subscribed to,
  /// and the subscribe is reported.
  func test_fanInJustSides_areSubscribedToWhileAnIntrospectionWatches() {
    let recorder = Recorder()
    recorder.enable()
    defer { recorder.disable() }
    let subject = PassthroughSubject<Int, Never>()
    let zipped = TestSubscriber<Int, Never>()
    subject.zip(Just(2)).map { $0 + $1 }.subscribe(zipped)
    XCTAssertEqual(recorder.log.filter { $0 == "didReceive subscription Just" }.count, 1, "\(recorder.log)")
    let combined = TestSubscriber<Int, Never>()
    subject.combineLatest(Just(3), Just(4)).map { $0 + $1 + $2 }.subscribe(combined)
    XCTAssertEqual(recorder.log.filter { $0 == "didReceive subscription Just" }.count, 3, "\(recorder.log)")
    subject.send(1)
    XCTAssertEqual(zipped.values, [3])
    XCTAssertEqual(zipped.completion, .finished)
    XCTAssertEqual(combined.values, [8])
  }

  func test_watchedSubscriber_reportsValuesCompletionRequestsAndCancel() {
    let recorder = Recorder()
    recorder.enable()
    defer { recorder.disable() }
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(2))
    subject.subscribe(subscriber)
    recorder.log = []
    subject.send(5)
    subject.send(completion: .failure(TestError("x")))
    XCTAssertEqual(
      recorder.log, ["willReceive 5", "didReceive 5 -> max(2)", "willReceive failure(x)", "didReceive failure(x)"])

    let other = PassthroughSubject<Int, Never>()
    let cancelling = TestSubscriber<Int, Never>(initialDemand: .none)
    other.subscribe(cancelling)
    recorder.log = []
    cancelling.request(.max(3))
    cancelling.cancel()
    XCTAssertEqual(recorder.log, ["willRequest max(3)", "didRequest max(3)", "willCancel", "didCancel"])
  }

  func test_watchedSubscriber_reportsOnlyToIntrospectionsEnabledAtEachEvent() {
    let first = Recorder()
    let second = Recorder()
    first.enable()
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    subject.subscribe(subscriber)
    subject.send(1)
    second.enable()
    subject.send(2)
    first.disable()
    subject.send(3)
    second.disable()
    subject.send(4)
    XCTAssertEqual(subscriber.values, [1, 2, 3, 4], "watching never changes what flows")
    let firstValues = first.log.filter { $0.hasPrefix("willReceive") && !$0.contains("subscription") }
    XCTAssertEqual(firstValues, ["willReceive 1", "willReceive 2"])
    XCTAssertEqual(second.log, ["willReceive 2", "didReceive 2 -> max(0)", "willReceive 3", "didReceive 3 -> max(0)"])
  }

  func test_standIns_haveTheIdentityAndDescriptionOfWhatTheyWatch() throws {
    let recorder = Silent()
    recorder.enable()
    defer { recorder.disable() }
    var attached: [Any] = []
    let publisher = SpyPublisher(onReceive: { attached.append($0) })
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    publisher.subscribe(subscriber)
    let standIn = try XCTUnwrap(attached.first)
    XCTAssertFalse((standIn as AnyObject) === subscriber)
    XCTAssertEqual((standIn as? CustomStringConvertible)?.description, subscriber.description)
    XCTAssertEqual((standIn as? CustomCombineIdentifierConvertible)?.combineIdentifier, subscriber.combineIdentifier)
    XCTAssertFalse(standIn is CustomReflectable)
    XCTAssertFalse(standIn is CustomDebugStringConvertible)
    XCTAssertFalse(standIn is CustomPlaygroundDisplayConvertible)

    let subscription = try XCTUnwrap(subscriber.subscription)
    XCTAssertFalse((subscription as AnyObject) === publisher.subscription)
    XCTAssertEqual(String(describing: subscription), "Spy")
    XCTAssertEqual(subscription.combineIdentifier, publisher.subscription.combineIdentifier)
    XCTAssertFalse(subscription is CustomReflectable)
    subscription.request(.max(2))
    XCTAssertEqual(publisher.subscription.requests, [.max(2)])
  }

  func test_nestedSubscribeWithAWatchedSubscriber_isReported_butNotWrappedAgain() {
    let recorder = Recorder()
    recorder.enable()
    defer { recorder.disable() }
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    Forwarding(upstream: Just(1)).subscribe(subscriber)
    XCTAssertEqual(
      recorder.log,
      [
        "willSubscribe TestSubscriber", "willSubscribe TestSubscriber", "willReceive subscription Just",
        "didReceive subscription Just", "didSubscribe TestSubscriber", "didSubscribe TestSubscriber",
      ])
    subscriber.request(.max(1))
    XCTAssertEqual(recorder.log.filter { $0.hasPrefix("willRequest") }, ["willRequest max(1)"], "watched once")
  }

  func test_disabled_subscribeAttachesTheSubscriberItself() {
    var attached: [Any] = []
    let publisher = SpyPublisher(onReceive: { attached.append($0) })
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    publisher.subscribe(subscriber)
    XCTAssertTrue((attached.first as AnyObject?) === subscriber)
    XCTAssertTrue((subscriber.subscription as AnyObject?) === publisher.subscription)
  }
}

/// A publisher that records the subscriber it is given and hands it a spy subscription.
private final class SpyPublisher: Publisher {
  typealias Output = Int
  typealias Failure = Never
  final class Spy: Subscription, CustomStringConvertible {
    var requests: [Subscribers.Demand] = []
    func request(_ demand: Subscribers.Demand) { requests.append(demand) }
    func cancel() {}
    var description: String { "Spy" }
  }
  let subscription = Spy()
  let onReceive: (Any) -> Void
  init(onReceive: @escaping (Any) -> Void) { self.onReceive = onReceive }
  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    onReceive(subscriber)
    subscriber.receive(subscription: subscription)
  }
}

/// An operator with no subscriber of its own: it subscribes its subscriber upstream.
private struct Forwarding<Upstream: Publisher>: Publisher {
  typealias Output = Upstream.Output
  typealias Failure = Upstream.Failure
  let upstream: Upstream
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    upstream.subscribe(subscriber)
  }
}
