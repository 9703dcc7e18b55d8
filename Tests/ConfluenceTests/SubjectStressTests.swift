import Confluence
import ConfluenceTesting
import Foundation
import Synchronization
import XCTest

/// Several threads send to a subject while others subscribe, request and cancel; checks
/// the publisher contract, per-subscriber serialisation, per-sender order, demand, and
/// that everything is freed. Run it under the thread sanitizer too:
/// `swift test --sanitize=thread --scratch-path .build-tsan --filter SubjectStressTests`.
final class SubjectStressTests: XCTestCase {
  static let senderCount = 4
  static let minimumValuesPerSender = 200
  static let subscriberThreadCount = 2
  static let subscribersPerThread = 80

  func test_passthroughSubject_concurrentSendSubscribeRequestCancel() {
    var subject: PassthroughSubject<Int, Never>? = PassthroughSubject()
    run(
      send: { [weak subject] in subject?.send($0) },
      subscribe: { [weak subject] in subject?.subscribe($0) },
      finish: { subject?.send(completion: .finished) })
    assertReleased(&subject)
  }

  func test_currentValueSubject_concurrentSendSubscribeRequestCancel() {
    var subject: CurrentValueSubject<Int, Never>? = CurrentValueSubject(0)
    run(
      send: { [weak subject] in subject?.value = $0 },
      subscribe: { [weak subject] in subject?.subscribe($0) },
      finish: { subject?.send(completion: .finished) })
    XCTAssertEqual(subject?.value ?? 0 > 1_000_000, true, "the last value sent is current")
    assertReleased(&subject)
  }

  // MARK: Completion racing subscription

  /// One thread subscribes while another completes the subject. A subscriber may request
  /// (and, from a current value subject, receive) inside `receive(subscription:)`, but the
  /// completion must never reach it before `receive(subscription:)` has returned, and must
  /// reach every subscriber that did not cancel exactly once.
  func test_completionRacingSubscription_neverOvertakesReceiveSubscription() {
    for round in 0..<200 {
      let subject = CurrentValueSubject<Int, Never>(round)
      let probes = (0..<16).map { _ in SubscriptionOrderProbe() }
      let start = DispatchSemaphore(value: 0)
      let done = DispatchGroup()
      done.enter()
      Thread {
        start.wait()
        for probe in probes { subject.subscribe(probe) }
        done.leave()
      }.start()
      done.enter()
      Thread {
        start.wait()
        subject.send(completion: .finished)
        done.leave()
      }.start()
      start.signal()
      start.signal()
      done.wait()
      for probe in probes {
        XCTAssertEqual(probe.problems, [], "round \(round)")
        XCTAssertEqual(probe.completions, 1, "round \(round)")
      }
    }
  }

  // MARK: The scenario

  /// Sent values encode their sender and sequence number: `sender * 1_000_000 + seq`.
  /// Value `0` (a current value subject's initial value) counts as sender 0. Senders keep
  /// sending until the subscriber threads are done (at least `minimumValuesPerSender`).
  private func run(
    send: @escaping @Sendable (Int) -> Void,
    subscribe: @escaping @Sendable (TestSubscriber<Int, Never>) -> Void,
    finish: () -> Void
  ) {
    let book = Book()
    let start = DispatchSemaphore(value: 0)
    let stop = Atomic<Bool>(false)
    let senders = DispatchGroup()
    let subscribers = DispatchGroup()

    for sender in 1...Self.senderCount {
      senders.enter()
      Thread {
        start.wait()
        var seq = 0
        while seq < Self.minimumValuesPerSender || (!stop.load(ordering: .relaxed) && seq < 999_999) {
          seq += 1
          send(sender * 1_000_000 + seq)
        }
        senders.leave()
      }.start()
    }

    for thread in 0..<Self.subscriberThreadCount {
      subscribers.enter()
      Thread {
        start.wait()
        var live: [TestSubscriber<Int, Never>] = []
        for index in 0..<Self.subscribersPerThread {
          let subscriber = book.makeSubscriber(pattern: (index + thread) % 5)
          live.append(subscriber)
          subscribe(subscriber)
          subscriber.request(.max(1 + index % 3))
          subscriber.request(.max(2))
          // Cancel an older subscriber while senders may be delivering to it; keep every
          // seventh one until the subject completes.
          if live.count > 3 {
            let old = live.removeFirst()
            if index % 7 != 0 { old.cancel() }
          }
        }
        for subscriber in live { subscriber.cancel() }
        subscribers.leave()
      }.start()
    }

    for _ in 0..<(Self.senderCount + Self.subscriberThreadCount) {
      start.signal()
    }
    XCTAssertEqual(subscribers.wait(timeout: .now() + 30), .success, "subscriber threads did not finish")
    stop.store(true, ordering: .relaxed)
    XCTAssertEqual(senders.wait(timeout: .now() + 30), .success, "sender threads did not finish")
    finish()
    book.verify()
  }
}

/// Makes the stress test's subscribers and keeps score, from any thread.
private final class Book: @unchecked Sendable {
  // @unchecked Sendable: `subscribers`, `weakSubscribers` and `problems` are guarded by `lock`.
  private let lock = NSLock()
  private var subscribers: [TestSubscriber<Int, Never>] = []
  private var problems: [String] = []
  private var subscriptions: [WeakReference<AnyObject>] = []

  func track(_ subscription: Subscription) {
    lock.lock()
    subscriptions.append(WeakReference(subscription as AnyObject))
    lock.unlock()
  }

  func note(_ problem: String) {
    lock.lock()
    problems.append(problem)
    lock.unlock()
  }

  /// A subscriber with one of five demand patterns; its hooks check that it never
  /// receives two values at once.
  func makeSubscriber(pattern: Int) -> TestSubscriber<Int, Never> {
    let subscriber: TestSubscriber<Int, Never>
    switch pattern {
    case 0: subscriber = TestSubscriber(initialDemand: .unlimited, strictCancellation: false)
    case 1: subscriber = TestSubscriber(initialDemand: .none, strictCancellation: false)
    case 2: subscriber = TestSubscriber(initialDemand: .max(1), strictCancellation: false)
    default: subscriber = TestSubscriber(initialDemand: .max(3), strictCancellation: false)
    }
    let probe = ReceiveProbe()
    subscriber.onSubscription = { [unowned self] in self.track($0) }
    subscriber.onViolation = { [unowned self] in self.note($0) }
    subscriber.onValue = { [unowned self, unowned subscriber] _ in
      if probe.inReceive.exchange(true, ordering: .acquiring) {
        self.note("two values were delivered to one subscriber at once")
      }
      defer { probe.inReceive.store(false, ordering: .releasing) }
      let count = probe.received.add(1, ordering: .relaxed).newValue
      switch pattern {
      case 2:
        return .max(1)
      case 3 where count == 2:
        subscriber.cancel()  // from inside receive
        return .none
      case 4:
        subscriber.request(.max(1))  // re-entrant request
        return .none
      default:
        return .none
      }
    }
    lock.lock()
    subscribers.append(subscriber)
    lock.unlock()
    return subscriber
  }

  /// Checks every subscriber's history, then drops them and checks that they and their
  /// subscriptions are freed.
  func verify(file: StaticString = #filePath, line: UInt = #line) {
    lock.lock()
    let seen = problems
    let tracked = subscriptions
    let weakSubscribers = subscribers.map { WeakReference($0) }
    lock.unlock()

    XCTAssertEqual(seen, [], "contract violations", file: file, line: line)
    XCTAssertEqual(tracked.count, weakSubscribers.count, "every subscriber received a subscription")
    do {
      lock.lock()
      let all = subscribers
      subscribers = []
      lock.unlock()
      check(all, file: file, line: line)
    }  // the last strong references die here

    let aliveSubscribers = weakSubscribers.filter { $0.object != nil }.count
    XCTAssertEqual(aliveSubscribers, 0, "subscribers alive after completion and cancel", file: file, line: line)
    let aliveSubscriptions = tracked.filter { $0.object != nil }.count
    XCTAssertEqual(aliveSubscriptions, 0, "subscriptions alive after completion and cancel", file: file, line: line)
  }

  private func check(_ all: [TestSubscriber<Int, Never>], file: StaticString, line: UInt) {
    var totalValues = 0
    for subscriber in all {
      let values = subscriber.values
      totalValues += values.count
      let granted = subscriber.demands.reduce(Subscribers.Demand.none, +)
      XCTAssertTrue(
        values.count <= granted, "received \(values.count) values for demand \(granted)", file: file, line: line)
      var lastSeq: [Int: Int] = [:]
      for value in values {
        let (sender, seq) = value.quotientAndRemainder(dividingBy: 1_000_000)
        if let last = lastSeq[sender], seq <= last {
          XCTFail("sender \(sender): \(seq) arrived after \(last)", file: file, line: line)
        }
        lastSeq[sender] = seq
      }
      if !subscriber.isCancelled {
        XCTAssertEqual(
          subscriber.completion, .finished, "a live subscriber missed the completion", file: file, line: line)
      }
    }
    XCTAssertGreaterThan(totalValues, 0, "the stress test delivered nothing", file: file, line: line)
  }
}

private final class ReceiveProbe: Sendable {
  let inReceive = Atomic<Bool>(false)
  let received = Atomic<Int>(0)
}

/// Checks that nothing overtakes `receive(subscription:)`, which requests everything.
private final class SubscriptionOrderProbe: Subscriber, @unchecked Sendable {
  // @unchecked Sendable: the fields are guarded by `lock`.
  typealias Input = Int
  typealias Failure = Never
  private let lock = NSLock()
  private var inSubscription = false
  private var subscribed = false
  private var _problems: [String] = []
  private var _completions = 0

  var problems: [String] { lock.withLock { _problems } }
  var completions: Int { lock.withLock { _completions } }

  func receive(subscription: Subscription) {
    lock.withLock {
      inSubscription = true
      subscribed = true
    }
    subscription.request(.unlimited)
    for _ in 0..<50 { _ = lock.withLock { _completions } }  // stay a little while
    lock.withLock { inSubscription = false }
  }

  func receive(_ input: Int) -> Subscribers.Demand {
    lock.withLock {
      if !subscribed { _problems.append("value before subscription") }
      if _completions > 0 { _problems.append("value after completion") }
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {
    lock.withLock {
      if !subscribed { _problems.append("completion before subscription") }
      if inSubscription { _problems.append("completion inside receive(subscription:)") }
      _completions += 1
    }
  }
}
