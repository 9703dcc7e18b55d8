import Confluence
import ConfluenceTesting
import XCTest

/// Rules Apple gives the subscriptions ("conduits") of every subject — `PassthroughSubject`,
/// `CurrentValueSubject` and `@Published`'s subject: what they show, what they keep alive,
/// and what a subject does with the upstream subscriptions it is handed.
final class SubjectConduitRulesTests: XCTestCase {
  private func children(_ subscription: Subscription?) -> [(String?, String)] {
    guard let subscription else { return [] }
    return Mirror(reflecting: subscription).children.map { ($0.label, String(describing: $0.value)) }
  }

  /// A subscriber that keeps its subscription after completion, for the mirror tests.
  private func keepingSubscriber<Output>(
    _: Output.Type, initialDemand: Subscribers.Demand
  ) -> (TestSubscriber<Output, Never>, () -> Subscription?) {
    let subscriber = TestSubscriber<Output, Never>(initialDemand: initialDemand)
    var kept: Subscription?
    subscriber.onSubscription = { kept = $0 }
    return (subscriber, { kept })
  }

  private func assertMirror(
    _ subscription: Subscription?, subject name: String, demand: String, live: Bool,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    let shown = children(subscription)
    XCTAssertEqual(shown.map(\.0), ["parent", "downstream", "demand", "subject"], file: file, line: line)
    guard shown.count == 4 else { return }
    if live {
      XCTAssertTrue(shown[0].1.contains(name), shown[0].1, file: file, line: line)
      XCTAssertTrue(shown[1].1.contains("TestSubscriber"), shown[1].1, file: file, line: line)
      XCTAssertTrue(shown[3].1.contains(name), shown[3].1, file: file, line: line)
    } else {
      XCTAssertEqual([shown[0].1, shown[1].1, shown[3].1], ["nil", "nil", "nil"], file: file, line: line)
    }
    XCTAssertEqual(shown[2].1, demand, file: file, line: line)
  }

  // MARK: Mirror: parent, downstream, demand, subject

  func test_mirror_currentValueSubject_liveThenCancelled() {
    let subject = CurrentValueSubject<Int, Never>(42)
    let (subscriber, subscription) = keepingSubscriber(Int.self, initialDemand: .max(12))
    subject.subscribe(subscriber)
    subject.send(1)
    assertMirror(subscription(), subject: "CurrentValueSubject", demand: "max(10)", live: true)
    subscriber.cancel()
    assertMirror(subscription(), subject: "CurrentValueSubject", demand: "max(10)", live: false)
  }

  func test_mirror_passthroughSubject_liveThenCompleted() {
    let subject = PassthroughSubject<Int, Never>()
    let (subscriber, subscription) = keepingSubscriber(Int.self, initialDemand: .max(3))
    subject.subscribe(subscriber)
    subject.send(1)
    assertMirror(subscription(), subject: "PassthroughSubject", demand: "max(2)", live: true)
    subject.send(completion: .finished)
    assertMirror(subscription(), subject: "PassthroughSubject", demand: "max(2)", live: false)
  }

  func test_mirror_publishedSubject() {
    final class Model {
      @Published var count = 0
    }
    let model = Model()
    let (subscriber, subscription) = keepingSubscriber(Int.self, initialDemand: .none)
    model.$count.subscribe(subscriber)
    XCTAssertEqual(subscription().map { String(describing: $0) }, "PublishedSubject")
    assertMirror(subscription(), subject: "PublishedSubject", demand: "max(0)", live: true)
  }

  // MARK: How a conduit holds its subscriber: a class as itself, anything else (an
  // AnySubscriber included) boxed. Each form delivers, shows the subscriber in the mirror, and
  // lets it go at cancel and at completion.

  /// A subscriber that is a structure, whose events land in a class it shares.
  private struct RecordingStruct: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    final class Log {
      var values: [Int] = []
      var completions = 0
      var subscription: Subscription?
    }
    let log: Log
    let owner: AnyObject
    let combineIdentifier = CombineIdentifier()
    func receive(subscription: Subscription) {
      log.subscription = subscription
      subscription.request(.unlimited)
    }
    func receive(_ input: Int) -> Subscribers.Demand {
      log.values.append(input)
      return .none
    }
    func receive(completion: Subscribers.Completion<Never>) { log.completions += 1 }
  }

  private final class Token {}

  func test_classSubscriber_isShownAsItself_deliveredTo_andReleasedAtCancel() {
    let subject = CurrentValueSubject<Int, Never>(1)
    weak var weakSubscriber: TestSubscriber<Int, Never>?
    var subscription: Subscription?
    do {
      let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
      subscriber.onSubscription = { subscription = $0 }
      weakSubscriber = subscriber
      subject.subscribe(subscriber)
      subject.send(2)
      XCTAssertEqual(subscriber.values, [1, 2])
      let shown = subscription.flatMap { Mirror(reflecting: $0).descendant("downstream") }
      XCTAssertTrue((shown as AnyObject?) === subscriber, String(describing: shown))
    }
    XCTAssertNotNil(weakSubscriber, "the conduit keeps its subscriber while live")
    subscription?.cancel()
    XCTAssertNil(weakSubscriber, "cancel lets the subscriber go")
  }

  func test_anySubscriber_isShownAsTheAnySubscriber_deliveredTo_andReleasedAtCompletion() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakToken: Token?
    var received: [Int] = []
    var completions = 0
    var subscription: Subscription?
    var identifier: CombineIdentifier?
    do {
      let token = Token()
      weakToken = token
      let erased = AnySubscriber<Int, Never>(
        receiveSubscription: {
          subscription = $0
          $0.request(.max(2))
        },
        receiveValue: {
          withExtendedLifetime(token) {}
          received.append($0)
          return .none
        },
        receiveCompletion: { _ in completions += 1 })
      identifier = erased.combineIdentifier
      subject.subscribe(erased)
    }
    subject.send(1)
    subject.send(2)
    subject.send(3)
    XCTAssertEqual(received, [1, 2], "the erased subscriber's demand holds")
    do {
      // In a scope of its own: the mirror's copy of the subscriber keeps it alive.
      let shown = subscription.flatMap { Mirror(reflecting: $0).descendant("downstream") }
      let shownErased = shown.flatMap { $0 as? AnySubscriber<Int, Never> }
      XCTAssertNotNil(shownErased, String(describing: shown))
      XCTAssertEqual(shownErased?.combineIdentifier, identifier)
      XCTAssertEqual(shownErased.map { String(describing: $0) }, "Anonymous AnySubscriber")
    }
    XCTAssertNotNil(weakToken)
    subject.send(completion: .finished)
    XCTAssertEqual(completions, 1)
    XCTAssertNil(weakToken, "completion lets the erased subscriber go")
    let after = subscription.flatMap { Mirror(reflecting: $0).descendant("downstream") }
    XCTAssertEqual(after.map { String(describing: $0) }, "nil")
  }

  func test_classSubscriberThroughAnyPublisher_deliversAndReleases() {
    let subject = CurrentValueSubject<Int, Never>(7)
    weak var weakSubscriber: TestSubscriber<Int, Never>?
    do {
      let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
      weakSubscriber = subscriber
      subject.eraseToAnyPublisher().subscribe(subscriber)
      subject.send(8)
      XCTAssertEqual(subscriber.values, [7, 8])
    }
    XCTAssertNotNil(weakSubscriber)
    weakSubscriber?.cancel()
    XCTAssertNil(weakSubscriber, "cancel through the erased chain lets the subscriber go")
  }

  func test_structSubscriber_isShownAsItself_deliveredTo_andReleasedAtCancel() {
    let subject = PassthroughSubject<Int, Never>()
    let values = subscribeStruct(to: subject) {
      subject.send(4)
      subject.send(5)
    }
    XCTAssertEqual(values, [4, 5])
  }

  // MARK: An AnyPublisher wrapping a subject hands the subscriber on as itself (as Apple's
  // AnyPublisher hands every subscriber on), so the conduit shows and holds that subscriber.

  /// Subscribes a `RecordingStruct` to `publisher` (a subject, or one erased), checks that
  /// the conduit shows it as itself and that cancel lets it go (and stops its values);
  /// returns the values it received while live.
  private func subscribeStruct<P: Publisher>(
    to publisher: P, whileLive: () -> Void = {}, file: StaticString = #filePath, line: UInt = #line
  ) -> [Int] where P.Output == Int, P.Failure == Never {
    let log = RecordingStruct.Log()
    weak var weakToken: Token?
    do {
      let token = Token()
      weakToken = token
      publisher.subscribe(RecordingStruct(log: log, owner: token))
    }
    whileLive()
    do {
      let shown = log.subscription.flatMap { Mirror(reflecting: $0).descendant("downstream") }
      XCTAssertNotNil(shown as? RecordingStruct, String(describing: shown), file: file, line: line)
    }
    XCTAssertNotNil(weakToken, file: file, line: line)
    log.subscription?.cancel()
    XCTAssertNil(weakToken, "cancel lets the subscriber go", file: file, line: line)
    return log.values
  }

  func test_erasedPassthroughSubject_takesTheSubscriberAsItself() {
    let subject = PassthroughSubject<Int, Never>()
    let values = subscribeStruct(to: subject.eraseToAnyPublisher()) {
      subject.send(1)
      subject.send(2)
    }
    XCTAssertEqual(values, [1, 2])
  }

  func test_erasedCurrentValueSubject_takesTheSubscriberAsItself() {
    let subject = CurrentValueSubject<Int, Never>(5)
    let values = subscribeStruct(to: subject.eraseToAnyPublisher()) { subject.send(6) }
    XCTAssertEqual(values, [5, 6])
  }

  func test_erasedPublishedProperty_takesTheSubscriberAsItself() {
    final class Model: ObservableObject {
      @Published var count = 10
    }
    let model = Model()
    let values = subscribeStruct(to: model.$count.eraseToAnyPublisher()) { model.count = 11 }
    XCTAssertEqual(values, [10, 11])
  }

  func test_erasedObservableObjectPublisher_takesTheSubscriberAsItself() {
    let publisher = ObservableObjectPublisher()
    var received = 0
    var subscription: Subscription?
    let erased = publisher.eraseToAnyPublisher()
    erased.subscribe(
      AnySubscriber<Void, Never>(
        receiveSubscription: {
          subscription = $0
          $0.request(.unlimited)
        },
        receiveValue: {
          received += 1
          return .none
        }))
    publisher.send()
    publisher.send()
    XCTAssertEqual(received, 2)
    let shown = subscription.flatMap { Mirror(reflecting: $0).descendant("downstream") }
    XCTAssertNotNil(shown as? AnySubscriber<Void, Never>, String(describing: shown))
    subscription?.cancel()
    publisher.send()
    XCTAssertEqual(received, 2)
  }

  func test_erasedNonSubject_stillHandsAnAnySubscriberOn() {
    // A publisher that is not a subject sees the subscriber through an AnySubscriber.
    final class Recorder: Publisher {
      typealias Output = Int
      typealias Failure = Never
      var subscriberTypes: [String] = []
      func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriberTypes.append(String(describing: S.self))
        subscriber.receive(subscription: Subscriptions.empty)
      }
    }
    let recorder = Recorder()
    recorder.eraseToAnyPublisher().subscribe(RecordingStruct(log: RecordingStruct.Log(), owner: Token()))
    XCTAssertEqual(recorder.subscriberTypes.count, 1)
    XCTAssertTrue(recorder.subscriberTypes[0].hasPrefix("AnySubscriber"), recorder.subscriberTypes[0])
  }

  // MARK: A live subscription keeps its subject

  func test_liveSubscription_keepsTheSubject_untilCancelled() {
    weak var weakSubject: PassthroughSubject<Int, Never>?
    let subscriber = TestSubscriber<Int, Never>()
    do {
      let subject = PassthroughSubject<Int, Never>()
      weakSubject = subject
      subject.subscribe(subscriber)
    }
    XCTAssertNotNil(weakSubject)
    subscriber.cancel()
    XCTAssertNil(weakSubject)
  }

  func test_liveSubscription_keepsTheSubject_untilCompleted() {
    weak var weakSubject: CurrentValueSubject<Int, Never>?
    let subscriber = TestSubscriber<Int, Never>()
    do {
      let subject = CurrentValueSubject<Int, Never>(0)
      weakSubject = subject
      subject.subscribe(subscriber)
    }
    XCTAssertNotNil(weakSubject)
    weakSubject?.send(completion: .finished)
    XCTAssertNil(weakSubject)
    XCTAssertEqual(subscriber.completion, .finished)
  }

  // MARK: Upstream subscriptions

  func test_currentValueSubject_asksUpstreamAtOnce_andCancelsItOnDeinit() {
    let upstream = SubjectTestsRecordingSubscription()
    do {
      let subject = CurrentValueSubject<Int, Never>(42)
      subject.send(subscription: upstream)
      subject.send(subscription: upstream)
      XCTAssertEqual(upstream.requests, [.unlimited, .unlimited])
      XCTAssertEqual(upstream.cancels, 0)
    }
    XCTAssertEqual(upstream.cancels, 2)
  }

  func test_subjectKeptAliveBySubscribers_cancelsUpstreamOnlyWhenItFinallyGoes() {
    let upstream = SubjectTestsRecordingSubscription()
    let subscriber = TestSubscriber<Int, Never>()
    do {
      let subject = PassthroughSubject<Int, Never>()
      subject.subscribe(subscriber)
      subject.send(subscription: upstream)
    }
    XCTAssertEqual(upstream.cancels, 0, "the live subscription keeps the subject")
    subscriber.cancel()
    XCTAssertEqual(upstream.cancels, 1)
  }

  // MARK: Delivery around receive(subscription:)

  func test_requestInsideReceiveSubscription_deliversAtOnce_reentrantSubscribesNest() {
    final class Resubscriber: Subscriber {
      typealias Input = Int
      typealias Failure = Never
      let subject: CurrentValueSubject<Int, Never>
      var log: [String] = []
      var subscriptions = 0
      init(subject: CurrentValueSubject<Int, Never>) { self.subject = subject }
      func receive(subscription: Subscription) {
        subscription.request(.unlimited)
        subscriptions += 1
        log.append("subscription")
        if subscriptions < 3 { subject.subscribe(self) }
      }
      func receive(_ input: Int) -> Subscribers.Demand {
        log.append("value \(input)")
        return .none
      }
      func receive(completion: Subscribers.Completion<Never>) {}
    }
    let subject = CurrentValueSubject<Int, Never>(112)
    let subscriber = Resubscriber(subject: subject)
    subject.subscribe(subscriber)
    XCTAssertEqual(
      subscriber.log, ["value 112", "subscription", "value 112", "subscription", "value 112", "subscription"])
    subject.send(completion: .finished)  // the subscriber keeps the subject; its conduits let go
  }

  func test_completionDuringReceiveSubscription_waitsUntilItReturns() {
    let subject = PassthroughSubject<Int, Never>()
    var log: [String] = []
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: { _ in
        subject.send(completion: .finished)
        log.append("subscription returns")
      },
      receiveCompletion: { _ in log.append("completion") })
    subject.subscribe(subscriber)
    XCTAssertEqual(log, ["subscription returns", "completion"])
  }

  func test_completionDuringADeliveryInsideReceiveSubscription_waitsUntilItReturns() {
    let subject = CurrentValueSubject<Int, Never>(1)
    var log: [String] = []
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: {
        $0.request(.unlimited)
        log.append("subscription returns")
      },
      receiveValue: {
        log.append("value \($0)")
        subject.send(completion: .finished)
        return .none
      },
      receiveCompletion: { _ in log.append("completion") })
    subject.subscribe(subscriber)
    XCTAssertEqual(log, ["value 1", "subscription returns", "completion"])
  }

  func test_currentValueRequestedDuringReceiveSubscription_afterCompletionThere_isNotDelivered() {
    let subject = CurrentValueSubject<Int, Never>(1)
    var log: [String] = []
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: {
        subject.send(completion: .finished)
        $0.request(.unlimited)
      },
      receiveValue: {
        log.append("value \($0)")
        return .none
      },
      receiveCompletion: { _ in log.append("completion") })
    subject.subscribe(subscriber)
    XCTAssertEqual(log, ["completion"])
  }

  /// A subscriber that drops its subscription when it cancels, so the subject's list holds
  /// the only reference to the conduit.
  private final class CancelThenCompleteSubscriber: Subscriber {
    let subject: PassthroughSubject<Int, Never>
    var subscription: Subscription?
    var log: [String] = []
    init(_ subject: PassthroughSubject<Int, Never>) { self.subject = subject }
    func receive(subscription: Subscription) {
      self.subscription = subscription
      subscription.request(.unlimited)
    }
    func receive(_ input: Int) -> Subscribers.Demand {
      log.append("value \(input)")
      subscription?.cancel()
      subscription = nil
      subject.send(completion: .finished)
      return .none
    }
    func receive(completion: Subscribers.Completion<Never>) { log.append("completion") }
  }

  func test_cancelThenSubjectCompletion_insideADelivery_keepTheConduitAliveForTheDeliveringThread() {
    // The subscriber cancels (dropping its only reference to the subscription) and then the
    // subject completes, both inside the delivery of a value: the subject must not let the
    // conduit go while the sending thread is still delivering through it.
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = CancelThenCompleteSubscriber(subject)
    subject.subscribe(subscriber)
    weak let conduit = subscriber.subscription as AnyObject?
    XCTAssertNotNil(conduit)
    subject.send(1)
    subject.send(2)
    XCTAssertEqual(subscriber.log, ["value 1"])
    XCTAssertNil(conduit, "the conduit is released once the delivery returns")
  }

  // MARK: A subscription cancelled inside receive(subscription:)
  //
  // The subject hands a new subscriber its conduit without a reference of its own for the
  // call: its list's reference keeps the conduit alive until `receive(subscription:)` returns,
  // so a conduit cancelled meanwhile (on any thread) stays listed until then, and a
  // completion meanwhile does not drop it either.

  /// A subscriber that cancels in `receive(subscription:)` and keeps no reference to the
  /// subscription; `during` runs after the cancel, before it returns.
  private final class CancelOnSubscribe<Subject: Publisher>: Subscriber where Subject.Output == Int {
    typealias Input = Int
    typealias Failure = Subject.Failure
    var log: [String] = []
    var during: (Subscription) -> Void = { _ in }
    weak var conduit: AnyObject?
    var conduitAliveAfterCancel = false
    func receive(subscription: Subscription) {
      conduit = subscription as AnyObject
      subscription.cancel()
      during(subscription)
      conduitAliveAfterCancel = conduit != nil
      log.append("subscription returns")
    }
    func receive(_ input: Int) -> Subscribers.Demand {
      log.append("value \(input)")
      return .none
    }
    func receive(completion: Subscribers.Completion<Failure>) { log.append("completion") }
  }

  func test_cancelInsideReceiveSubscription_thenCompletion_conduitLivesUntilItReturns_thenGoes() {
    let subject = PassthroughSubject<Int, Never>()
    let other = TestSubscriber<Int, Never>(initialDemand: .unlimited)
    subject.subscribe(other)
    var subscriber: CancelOnSubscribe<PassthroughSubject<Int, Never>>? = CancelOnSubscribe()
    weak let released = subscriber
    subscriber?.during = { subscription in
      subject.send(1)
      subject.send(completion: .finished)
      subscription.request(.max(1))  // on a cancelled conduit: nothing happens
    }
    subject.subscribe(subscriber!)
    XCTAssertEqual(subscriber?.log, ["subscription returns"])
    XCTAssertEqual(subscriber?.conduitAliveAfterCancel, true, "the list keeps the conduit during the call")
    XCTAssertNil(subscriber?.conduit, "the conduit goes when receive(subscription:) returns")
    XCTAssertEqual(other.values, [1])
    XCTAssertNotNil(other.completion)
    subscriber = nil
    XCTAssertNil(released, "the subject let the cancelled subscriber go")
  }

  func test_cancelInsideReceiveSubscription_publishedProperty_conduitLivesUntilItReturns_thenGoes() {
    // `@Published`'s subject shares the subjects' storage: the same rule holds.
    final class Model {
      @Published var count = 0
    }
    let model = Model()
    let subscriber = CancelOnSubscribe<Published<Int>.Publisher>()
    subscriber.during = { _ in model.count = 1 }
    model.$count.subscribe(subscriber)
    XCTAssertEqual(subscriber.log, ["subscription returns"])
    XCTAssertEqual(subscriber.conduitAliveAfterCancel, true, "the list keeps the conduit during the call")
    XCTAssertNil(subscriber.conduit, "the conduit goes when receive(subscription:) returns")
  }

  func test_cancelInsideReceiveSubscription_subjectServesTheOthersAndLaterSubscribers() {
    let subject = PassthroughSubject<Int, Never>()
    let first = TestSubscriber<Int, Never>(initialDemand: .unlimited)
    subject.subscribe(first)
    let cancelling = CancelOnSubscribe<PassthroughSubject<Int, Never>>()
    cancelling.during = { _ in subject.send(1) }
    subject.subscribe(cancelling)
    XCTAssertNil(cancelling.conduit)
    let last = TestSubscriber<Int, Never>(initialDemand: .unlimited)
    subject.subscribe(last)
    subject.send(2)
    subject.send(completion: .finished)
    XCTAssertEqual(first.values, [1, 2])
    XCTAssertEqual(last.values, [2])
    XCTAssertEqual(cancelling.log, ["subscription returns"])
    XCTAssertNotNil(first.completion)
    XCTAssertNotNil(last.completion)
  }

  func test_cancelInsideADeliveryInsideReceiveSubscription_conduitGoesWhenItReturns() {
    // The current value is delivered inside the request made in receive(subscription:); the
    // subscriber cancels inside that delivery and keeps no reference.
    final class Subscriber1: Subscriber {
      typealias Input = Int
      typealias Failure = Never
      var subscription: Subscription?
      weak var conduit: AnyObject?
      var log: [String] = []
      func receive(subscription: Subscription) {
        self.subscription = subscription
        conduit = subscription as AnyObject
        subscription.request(.unlimited)
        log.append("subscription returns, conduit \(conduit == nil ? "gone" : "alive")")
      }
      func receive(_ input: Int) -> Subscribers.Demand {
        log.append("value \(input)")
        subscription?.cancel()
        subscription = nil
        return .none
      }
      func receive(completion: Subscribers.Completion<Never>) { log.append("completion") }
    }
    let subject = CurrentValueSubject<Int, Never>(7)
    let subscriber = Subscriber1()
    subject.subscribe(subscriber)
    subject.send(8)
    subject.send(completion: .finished)
    XCTAssertEqual(subscriber.log, ["value 7", "subscription returns, conduit alive"])
    XCTAssertNil(subscriber.conduit)
  }

  func test_cancelFromAnotherThread_whileInReceiveSubscription_conduitLivesUntilItReturns() {
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = CancelOnSubscribeElsewhere()
    subject.subscribe(subscriber)
    XCTAssertEqual(subscriber.conduitAliveAfterCancel, true)
    XCTAssertNil(subscriber.conduit, "the conduit goes when receive(subscription:) returns")
    subject.send(1)
    XCTAssertEqual(subscriber.values, [])
  }
}

/// A subscriber whose `receive(subscription:)` hands the subscription to another thread,
/// which cancels it (and drops it) and completes nothing; the call waits for that thread, then
/// notes whether the conduit is still alive. It keeps no reference to the subscription.
private final class CancelOnSubscribeElsewhere: Subscriber, @unchecked Sendable {
  // @unchecked Sendable: `conduit` and the flag are written by the subscribing thread only,
  // and read by the test after it returns.
  typealias Input = Int
  typealias Failure = Never
  weak var conduit: AnyObject?
  var conduitAliveAfterCancel = false
  var values: [Int] = []

  /// Holds the subscription for the other thread, which drops it after cancelling.
  private final class Handed: @unchecked Sendable {
    // @unchecked Sendable: one thread at a time, ordered by the semaphore.
    var subscription: Subscription?
  }

  func receive(subscription: Subscription) {
    conduit = subscription as AnyObject
    let done = DispatchSemaphore(value: 0)
    let handed = Handed()
    handed.subscription = subscription
    Thread.detachNewThread {
      handed.subscription?.cancel()
      handed.subscription = nil
      done.signal()
    }
    done.wait()
    conduitAliveAfterCancel = conduit != nil
  }
  func receive(_ input: Int) -> Subscribers.Demand {
    values.append(input)
    return .none
  }
  func receive(completion: Subscribers.Completion<Never>) {}
}
