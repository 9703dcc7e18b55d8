import Confluence
import ConfluenceTesting
import XCTest

/// `Publisher.subscribe(_:)` with a subject.
final class SubscribeSubjectTests: XCTestCase {
  func test_forwardsValuesAndCompletion_toPassthroughSubject() {
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    subject.subscribe(subscriber)
    let connection = [1, 2, 3].publisher.subscribe(subject)
    XCTAssertEqual(
      subscriber.events,
      [.subscription("PassthroughSubject"), .value(1), .value(2), .value(3), .completion(.finished)])
    withExtendedLifetime(connection) {}
  }

  func test_updatesCurrentValueSubject() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let connection = [1, 2, 3].publisher.subscribe(subject)
    XCTAssertEqual(subject.value, 3)
    withExtendedLifetime(connection) {}
  }

  func test_requestsUnlimitedFromUpstream_andForwardsFailure() {
    let upstream = SubjectTestsUpstream<Int, TestError>()
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = TestSubscriber<Int, TestError>()
    subject.subscribe(subscriber)
    let connection = upstream.subscribe(subject)
    XCTAssertEqual(upstream.subscription.requests, [.unlimited])
    XCTAssertEqual(upstream.send?(1), Subscribers.Demand.none)
    upstream.complete?(.failure(TestError("upstream")))
    XCTAssertEqual(
      subscriber.events,
      [.subscription("PassthroughSubject"), .value(1), .completion(.failure(TestError("upstream")))])
    withExtendedLifetime(connection) {}
  }

  func test_cancel_cancelsUpstreamAndStopsForwarding() {
    let upstream = SubjectTestsUpstream<Int, Never>()
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    subject.subscribe(subscriber)
    let connection = upstream.subscribe(subject)
    _ = upstream.send?(1)
    connection.cancel()
    XCTAssertEqual(upstream.subscription.cancels, 1)
    _ = upstream.send?(2)  // a late value from an upstream that ignores cancel
    XCTAssertEqual(subscriber.values, [1])
    connection.cancel()
    XCTAssertEqual(upstream.subscription.cancels, 1, "cancel is idempotent")
  }

  // Apple's connection refers to the subject weakly (an earlier version kept it alive):
  // a subject nobody keeps goes away, and cancels the connection on its way out.
  func test_connectionDoesNotKeepTheSubject_whichCancelsItWhenItGoes() {
    let upstream = SubjectTestsUpstream<Int, Never>()
    var subject: PassthroughSubject<Int, Never>? = PassthroughSubject()
    weak let weakSubject = subject
    let connection = upstream.subscribe(subject!)
    subject = nil
    XCTAssertNil(weakSubject)
    XCTAssertEqual(upstream.subscription.cancels, 1)
    connection.cancel()
    XCTAssertEqual(upstream.subscription.cancels, 1)
  }

  func test_connection_describedAsSubject() {
    let upstream = SubjectTestsUpstream<Int, Never>()
    let subject = PassthroughSubject<Int, Never>()
    var handedOver: Subscription?
    let spy = SpySubject(onSubscription: { handedOver = $0 })
    let connection = upstream.subscribe(spy)
    XCTAssertEqual(handedOver.map { String(describing: $0) }, "Subject")
    XCTAssertFalse(handedOver.map { Mirror(reflecting: $0).children.isEmpty } ?? true)
    withExtendedLifetime((connection, subject)) {}
  }

  // MARK: Whose demand: the subject decides

  func test_connection_asksUpstreamForNothingOfItsOwn() {
    let upstream = SubjectTestsUpstream<Int, Never>()
    var handedOver: Subscription?
    let spy = SpySubject(onSubscription: { handedOver = $0 })
    let connection = upstream.subscribe(spy)
    XCTAssertEqual(upstream.subscription.requests, [])
    handedOver?.request(.max(42))
    XCTAssertEqual(upstream.subscription.requests, [.max(42)])
    handedOver?.cancel()
    handedOver?.cancel()
    handedOver?.request(.max(1))
    XCTAssertEqual(upstream.subscription.cancels, 1)
    XCTAssertEqual(upstream.subscription.requests, [.max(42)])
    withExtendedLifetime(connection) {}
  }

  func test_passthroughSubject_asksUpstreamOnlyOnceASubscriberAsks() {
    let upstream = SubjectTestsUpstream<Int, Never>()
    let subject = PassthroughSubject<Int, Never>()
    let connection = upstream.subscribe(subject)
    XCTAssertEqual(upstream.subscription.requests, [])
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    subject.subscribe(subscriber)
    XCTAssertEqual(upstream.subscription.requests, [], "subscribing is not asking")
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.subscription.requests, [.unlimited])
    subscriber.request(.max(1))
    XCTAssertEqual(upstream.subscription.requests, [.unlimited], "asked once")
    withExtendedLifetime(connection) {}
  }

  func test_currentValueSubject_asksUpstreamAtOnce() {
    let upstream = SubjectTestsUpstream<Int, Never>()
    let subject = CurrentValueSubject<Int, Never>(0)
    let connection = upstream.subscribe(subject)
    XCTAssertEqual(upstream.subscription.requests, [.unlimited])
    withExtendedLifetime(connection) {}
  }

  // The case a suite written against Apple's Combine checks: a CurrentValueSubject
  // connected to a PassthroughSubject before anyone subscribes keeps its current value
  // for the passthrough's first subscriber.
  func test_currentValueUpstream_connectedEarly_reachesTheFirstSubscriber() {
    let source = CurrentValueSubject<Int, Never>(7)
    let relay = PassthroughSubject<Int, Never>()
    let connection = source.subscribe(relay)
    let subscriber = TestSubscriber<Int, Never>()
    relay.subscribe(subscriber)
    source.send(8)
    XCTAssertEqual(subscriber.values, [7, 8])
    withExtendedLifetime(connection) {}
  }

  func test_completion_releasesTheSubject() {
    let upstream = PassthroughSubject<Int, Never>()
    var subject: PassthroughSubject<Int, Never>? = PassthroughSubject()
    weak let weakSubject = subject
    let connection = upstream.subscribe(subject!)
    subject = nil
    upstream.send(completion: .finished)
    XCTAssertNil(weakSubject)
    withExtendedLifetime(connection) {}
  }

  func test_chainOfSubjects() {
    let first = PassthroughSubject<String, Never>()
    let second = CurrentValueSubject<String, Never>("start")
    var received: [String] = []
    let printer = second.sink { received.append($0) }
    let connection = first.subscribe(second)
    first.send("a")
    first.send("b")
    XCTAssertEqual(received, ["start", "a", "b"])
    withExtendedLifetime((printer, connection)) {}
  }
}

/// A subject that records the subscription it is handed and does nothing else.
private final class SpySubject: Subject {
  typealias Output = Int
  typealias Failure = Never
  let onSubscription: (Subscription) -> Void
  init(onSubscription: @escaping (Subscription) -> Void) { self.onSubscription = onSubscription }
  func send(_ value: Int) {}
  func send(completion: Subscribers.Completion<Never>) {}
  func send(subscription: Subscription) { onSubscription(subscription) }
  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {}
}
