import Confluence
import ConfluenceTesting
import XCTest

/// A subject that records what it was sent; enough to check `AnySubscriber(subject)`.
private final class RecordingSubject: Subject, CustomStringConvertible {
  typealias Output = Int
  typealias Failure = TestError

  var sent: [String] = []

  func send(_ value: Int) { sent.append("value(\(value))") }
  func send(completion: Subscribers.Completion<TestError>) { sent.append("completion(\(completion))") }
  func send(subscription: Subscription) {
    sent.append("subscription(\(subscription))")
    subscription.request(.unlimited)
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
    subscriber.receive(subscription: Subscriptions.empty)
  }

  var description: String { "RecordingSubject" }
}

/// A subscriber with no description of its own.
private struct PlainSubscriber: Subscriber {
  typealias Input = Int
  typealias Failure = Never
  let combineIdentifier = CombineIdentifier()
  func receive(subscription: Subscription) { subscription.request(.unlimited) }
  func receive(_ input: Int) -> Subscribers.Demand { .none }
  func receive(completion: Subscribers.Completion<Never>) {}
}

final class AnySubscriberTests: XCTestCase {
  // MARK: Wrapping a subscriber

  func test_wrappedSubscriber_receivesWholeHistory() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    [1, 2, 3].publisher.subscribe(AnySubscriber(subscriber))
    XCTAssertEqual(
      subscriber.events, [.subscription("[1, 2, 3]"), .value(1), .value(2), .value(3), .completion(.finished)])
    XCTAssertEqual(subscriber.demands, [.max(1), .max(1), .max(1), .max(1)])
  }

  func test_wrappedSubscriber_demandReturnedUnchanged() {
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(3))
    let erased = AnySubscriber(subscriber)
    erased.receive(subscription: Subscriptions.empty)
    XCTAssertEqual(erased.receive(5), .max(3))
  }

  func test_wrappedSubscriber_sharesIdentityAndDescription() {
    let subscriber = TestSubscriber<Int, Never>()
    let erased = AnySubscriber(subscriber)
    XCTAssertEqual(erased.combineIdentifier, subscriber.combineIdentifier)
    XCTAssertEqual(erased.description, "TestSubscriber")
    XCTAssertEqual(erased.playgroundDescription as? String, "TestSubscriber")
    XCTAssertTrue(erased.customMirror.subjectType == TestSubscriber<Int, Never>.self)
  }

  func test_wrappedSubscriberWithoutDescription_describedByType() {
    let plain = PlainSubscriber()
    let erased = AnySubscriber(plain)
    XCTAssertEqual(erased.description, "PlainSubscriber")
    XCTAssertEqual(erased.combineIdentifier, plain.combineIdentifier)
  }

  func test_wrappingTwice_keepsIdentity() {
    let subscriber = TestSubscriber<Int, Never>()
    let once = AnySubscriber(subscriber)
    let twice = AnySubscriber(once)
    XCTAssertEqual(twice.combineIdentifier, subscriber.combineIdentifier)
    XCTAssertEqual(twice.description, "TestSubscriber")
    Just(1).subscribe(twice)
    XCTAssertEqual(subscriber.events, [.subscription("Just"), .value(1), .completion(.finished)])
  }

  // MARK: Wrapping a subject (Apple's: through the same connection as `subscribe(subject)`)

  func test_wrappedSubject_receivesEventsAsSends_throughTheConnection() {
    let subject = RecordingSubject()
    Record<Int, TestError>(output: [1, 2], completion: .failure(TestError("end"))).subscribe(AnySubscriber(subject))
    XCTAssertEqual(subject.sent, ["subscription(Subject)", "value(1)", "value(2)", "completion(failure(end))"])
  }

  func test_wrappedSubject_onlyTheFirstSubscriptionAndCompletionCount() {
    let subject = RecordingSubject()
    let erased = AnySubscriber(subject)
    let first = DemandProbe()
    let second = DemandProbe()
    erased.receive(subscription: first)
    erased.receive(subscription: second)
    XCTAssertEqual(second.cancels, 1)
    XCTAssertEqual(first.requests, [.unlimited], "the subject's request goes to the accepted subscription")
    XCTAssertEqual(erased.receive(1), .none)
    erased.receive(completion: .finished)
    erased.receive(completion: .failure(TestError()))
    XCTAssertEqual(erased.receive(2), .none)
    XCTAssertEqual(subject.sent, ["subscription(Subject)", "value(1)", "completion(finished)"])
  }

  func test_wrappedSubject_valueBeforeSubscription_goesNowhere() {
    let subject = RecordingSubject()
    let erased = AnySubscriber(subject)
    XCTAssertEqual(erased.receive(1), .none)
    XCTAssertEqual(subject.sent, [])
  }

  func test_wrappedSubject_describedAsSubject_mirrorOfTheConnection() {
    let subject = RecordingSubject()
    let erased = AnySubscriber(subject)
    XCTAssertEqual(erased.description, "Subject")
    XCTAssertEqual(erased.playgroundDescription as? String, "Subject")
    XCTAssertEqual(
      String(describing: Mirror(reflecting: erased).subjectType), "SubjectSubscriber<RecordingSubject>")
    XCTAssertFalse(Mirror(reflecting: erased).children.isEmpty)
    XCTAssertNotEqual(erased.combineIdentifier, CombineIdentifier(subject))
  }

  // MARK: Closures

  func test_closures_receiveWholeHistory() {
    var events: [String] = []
    let erased = AnySubscriber<Int, Never>(
      receiveSubscription: {
        events.append("subscription(\($0))")
        $0.request(.max(2))
      },
      receiveValue: {
        events.append("value(\($0))")
        return .none
      },
      receiveCompletion: { events.append("completion(\($0))") })
    [1, 2, 3].publisher.subscribe(erased)
    XCTAssertEqual(events, ["subscription([1, 2, 3])", "value(1)", "value(2)"])
  }

  func test_closures_demandFromReceiveValue() {
    var values: [Int] = []
    let erased = AnySubscriber<Int, Never>(
      receiveSubscription: { $0.request(.max(1)) },
      receiveValue: {
        values.append($0)
        return .max(1)
      })
    [1, 2, 3].publisher.subscribe(erased)
    XCTAssertEqual(values, [1, 2, 3])
  }

  func test_noClosures_requestsNothing() {
    let erased = AnySubscriber<Int, Never>()
    XCTAssertEqual(erased.receive(1), .none)
    var finished = false
    let watcher = AnySubscriber<Int, Never>(receiveCompletion: { _ in finished = true })
    Just(1).subscribe(watcher)
    XCTAssertFalse(finished, "nothing was requested, so Just must not have sent anything")
    Empty<Int, Never>().subscribe(watcher)
    XCTAssertTrue(finished)
  }

  func test_closures_anonymousDescription_uniqueIdentity() {
    let first = AnySubscriber<Int, Never>()
    let second = AnySubscriber<Int, Never>()
    XCTAssertEqual(first.description, "Anonymous AnySubscriber")
    XCTAssertEqual(first.playgroundDescription as? String, "Anonymous AnySubscriber")
    XCTAssertEqual(first.customMirror.children.count, 0)
    XCTAssertTrue(first.customMirror.subjectType == String.self, "Apple mirrors the description string")
    XCTAssertNotEqual(first.combineIdentifier, second.combineIdentifier)
  }

  func test_closures_releasedWithSubscriber() {
    let tracker = LifetimeTracker()
    var erased: AnySubscriber<Int, Never>? = AnySubscriber(
      receiveValue: { [probe = tracker.make()] _ in
        _ = probe
        return .none
      })
    XCTAssertEqual(tracker.liveCount, 1)
    erased = nil
    XCTAssertEqual(tracker.liveCount, 0)
    _ = erased
  }
}
