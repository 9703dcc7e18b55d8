import Confluence
import ConfluenceTesting
import Foundation
import XCTest

/// An operator's relay subscribed to a subject is moved into the subject's subscription (the
/// operator keeps no copy), and `receive(subscription:)` runs on the subscription's own copy.
/// So a relay whose downstream cancels inside that call must stay alive until the call
/// returns, and be let go then.
///
/// The first tests run the library's operators (`map`, `filter`, `flatMap`) over subjects
/// and check what a user sees: the order of events, deliveries, and that each relay and its
/// subscriber go once the call returned. Those relays touch nothing of their own after their
/// downstream's call, and what they hold is also held by the caller until `subscribe`
/// returns, so a relay let go at the cancel would not show there. The last tests hand over a
/// relay of their own, as operators do (`_subscribeRelay`, moved), that records through itself
/// after the cancel: with the subscription letting it go at the cancel they fail (checked).
///
/// In this target, compiled optimised, the pipelines are built by specialised code, as in an
/// app's release build: a relay that is a class (`filter`'s, `flatMap`'s) is held by the
/// subject as itself and handed over moved. Built by unspecialised code (a debug build's
/// tests), it is boxed and handed over borrowed.
final class SubjectRelayHandoverTests: XCTestCase {
  /// What the subscriber and the map's closure record, in order.
  private final class Log: @unchecked Sendable {
    var events: [String] = []
  }

  /// Something the `map` closure captures, which records when it goes.
  private final class Captured {
    let log: Log
    init(_ log: Log) { self.log = log }
    deinit { log.events.append("closure context deinit") }
  }

  /// A subscriber held only by the pipeline. In `receive(subscription:)` it cancels, or
  /// requests one value and cancels when it arrives; it records each step and its deinit.
  private final class Canceller: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    enum When { case onSubscription, onFirstValue }
    let log: Log
    let when: When
    var subscription: Subscription?
    init(_ log: Log, cancels when: When) {
      self.log = log
      self.when = when
    }
    deinit { log.events.append("subscriber deinit") }
    func receive(subscription: Subscription) {
      switch when {
      case .onSubscription:
        subscription.cancel()
        log.events.append("cancelled")
      case .onFirstValue:
        self.subscription = subscription
        subscription.request(.max(1))
      }
      log.events.append("subscription returns")
    }
    func receive(_ input: Int) -> Subscribers.Demand {
      log.events.append("value \(input)")
      weak let probe = subscription as AnyObject?
      subscription?.cancel()
      subscription = nil
      // Through `flatMap`, the subscription is flatMap's relay, which the subject's
      // subscription now holds alone: it must outlive the call the subject is in.
      log.events.append(probe == nil ? "cancelled, subscription gone" : "cancelled")
      return .none
    }
    func receive(completion: Subscribers.Completion<Never>) { log.events.append("completion") }
  }

  /// Checks that `events` are `during`, in order, then the two deinits in either order (a
  /// relay lets its downstream and its closure go together).
  private func assertEvents(
    _ events: [String], _ during: [String], _ message: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(Array(events.prefix(during.count)), during, message, file: file, line: line)
    XCTAssertEqual(
      events.dropFirst(during.count).sorted(), ["closure context deinit", "subscriber deinit"], message, file: file,
      line: line)
  }

  /// Subscribes a `Canceller` through `map` (a relay the subject stores in place), `filter`
  /// (a relay that is a class, held as itself) and `flatMap` (which hands its subscriber the
  /// subscription before it subscribes upstream, so `flatMapExpected` if given) to `make()`'s
  /// publisher, and checks the order of events.
  private func check<P: Publisher>(
    _ make: () -> P, cancels when: Canceller.When, expected: [String], flatMapExpected: [String]? = nil,
    file: StaticString = #filePath, line: UInt = #line
  ) where P.Output == Int, P.Failure == Never {
    // Each relay's closure captures an object that records its deinit: it goes with the
    // relay, after the call (the publisher, which holds it too, is a temporary of the
    // statement).
    do {
      let log = Log()
      make().map { [captured = Captured(log)] value in withExtendedLifetime(captured) { value } }
        .subscribe(Canceller(log, cancels: when))
      assertEvents(log.events, expected, "map", file: file, line: line)
    }
    do {
      let log = Log()
      make().filter { [captured = Captured(log)] _ in withExtendedLifetime(captured) { true } }
        .subscribe(Canceller(log, cancels: when))
      assertEvents(log.events, expected, "filter", file: file, line: line)
    }
    do {
      let log = Log()
      make().flatMap { [captured = Captured(log)] value in withExtendedLifetime(captured) { Just(value) } }
        .subscribe(Canceller(log, cancels: when))
      assertEvents(log.events, flatMapExpected ?? expected, "flatMap", file: file, line: line)
    }
  }

  func test_cancelInsideReceiveSubscription_relayLivesUntilTheCallReturns() {
    let expected = ["cancelled", "subscription returns"]
    let passthrough = PassthroughSubject<Int, Never>()
    let current = CurrentValueSubject<Int, Never>(7)
    check({ passthrough }, cancels: .onSubscription, expected: expected)
    check({ current }, cancels: .onSubscription, expected: expected)
    check({ passthrough.eraseToAnyPublisher() }, cancels: .onSubscription, expected: expected)
    check({ current.eraseToAnyPublisher() }, cancels: .onSubscription, expected: expected)
    // The subjects serve on.
    let after = TestSubscriber<Int, Never>(initialDemand: .unlimited)
    current.map { $0 * 2 }.subscribe(after)
    current.send(8)
    XCTAssertEqual(after.values, [14, 16])
  }

  func test_cancelInsideADeliveryInsideReceiveSubscription_relayLivesUntilTheCallReturns() {
    // The request inside receive(subscription:) delivers the current value at once; the
    // subscriber cancels inside that delivery, so the delivering code finds the cancel.
    let current = CurrentValueSubject<Int, Never>(7)
    let expected = ["value 7", "cancelled", "subscription returns"]
    // flatMap's subscriber returns from receive(subscription:) before flatMap subscribes
    // upstream; the cancel then arrives inside flatMap's own receive(subscription:).
    let flatMapExpected = ["subscription returns", "value 7", "cancelled"]
    check({ current }, cancels: .onFirstValue, expected: expected, flatMapExpected: flatMapExpected)
    check(
      { current.eraseToAnyPublisher() }, cancels: .onFirstValue, expected: expected, flatMapExpected: flatMapExpected)
  }

  func test_cancelFromAnotherThreadDuringReceiveSubscription_relayLivesUntilTheCallReturns() {
    // Another thread cancels while the subscriber waits inside receive(subscription:).
    final class Waiter: Subscriber {
      typealias Input = Int
      typealias Failure = Never
      let log: Log
      init(_ log: Log) { self.log = log }
      deinit { log.events.append("subscriber deinit") }
      func receive(subscription: Subscription) {
        nonisolated(unsafe) let subscription = subscription
        let cancelled = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
          subscription.cancel()
          cancelled.signal()
        }
        cancelled.wait()
        log.events.append("subscription returns")
      }
      func receive(_ input: Int) -> Subscribers.Demand { .none }
      func receive(completion: Subscribers.Completion<Never>) {}
    }
    let subject = PassthroughSubject<Int, Never>()
    let log = Log()
    subject.map { [captured = Captured(log)] value in withExtendedLifetime(captured) { value } }
      .subscribe(Waiter(log))
    assertEvents(log.events, ["subscription returns"], "map")
  }

  func test_relayToACompletedSubject_getsTheCompletion_thenGoes() {
    for make in [
      { () -> AnyPublisher<Int, Never> in
        let subject = PassthroughSubject<Int, Never>()
        subject.send(completion: .finished)
        return subject.eraseToAnyPublisher()
      },
      {
        let subject = CurrentValueSubject<Int, Never>(1)
        subject.send(completion: .finished)
        return subject.eraseToAnyPublisher()
      },
    ] {
      let log = Log()
      make().map { [captured = Captured(log)] value in withExtendedLifetime(captured) { value } }
        .subscribe(Canceller(log, cancels: .onFirstValue))
      assertEvents(log.events, ["subscription returns", "completion"], "map")
    }
  }

  func test_relayOnASubject_deliversAndIsReleasedAtCancel() {
    let subject = PassthroughSubject<Int, Never>()
    let log = Log()
    var received: [Int] = []
    var captured: Captured? = Captured(log)
    weak let released = captured
    let cancellable = subject.map { [captured] value in withExtendedLifetime(captured) { value + 1 } }
      .filter { $0 > 1 }
      .sink { received.append($0) }
    captured = nil
    XCTAssertNotNil(released, "the relay in the subscription keeps its closure")
    subject.send(1)
    subject.send(0)
    XCTAssertEqual(received, [2])
    cancellable.cancel()
    XCTAssertNil(released, "the relay goes at the cancel")
    XCTAssertEqual(log.events, ["closure context deinit"])
  }

  // MARK: A relay handed over directly
  //
  // The library's relays touch nothing of their own after their downstream's call, so one let
  // go too early would go unnoticed above. This relay, handed over as operators hand theirs
  // (`_subscribeRelay`, moved: nothing else holds it), records after the cancel, through
  // itself, and records its deinit.

  private final class TouchingRelay: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    let log: Log
    let requests: Bool
    var subscription: Subscription?
    init(_ log: Log, requests: Bool) {
      self.log = log
      self.requests = requests
    }
    deinit { log.events.append("relay deinit") }
    func receive(subscription: Subscription) {
      if requests {
        self.subscription = subscription
        subscription.request(.max(1))
      } else {
        subscription.cancel()
      }
      log.events.append("relay continues")
    }
    func receive(_ input: Int) -> Subscribers.Demand {
      log.events.append("value \(input)")
      subscription?.cancel()
      subscription = nil
      return .none
    }
    func receive(completion: Subscribers.Completion<Never>) { log.events.append("completion") }
  }

  /// Which publisher ``subscribeRelay(_:to:requests:)`` hands the relay to.
  private enum Target: CaseIterable {
    case passthrough, currentValue, erasedPassthrough, erasedCurrentValue
  }

  /// Hands a new `TouchingRelay` to `target`'s publisher moved: the relay is made in the
  /// argument itself, so no caller keeps a copy (a closure's parameter, borrowed, would).
  private func subscribeRelay(_ log: Log, to target: Target, requests: Bool) {
    switch target {
    case .passthrough: passthrough._subscribeRelay(TouchingRelay(log, requests: requests))
    case .currentValue: current._subscribeRelay(TouchingRelay(log, requests: requests))
    case .erasedPassthrough: erasedPassthrough._subscribeRelay(TouchingRelay(log, requests: requests))
    case .erasedCurrentValue: erasedCurrent._subscribeRelay(TouchingRelay(log, requests: requests))
    }
  }

  private let passthrough = PassthroughSubject<Int, Never>()
  private let current = CurrentValueSubject<Int, Never>(7)
  private lazy var erasedPassthrough = passthrough.eraseToAnyPublisher()
  private lazy var erasedCurrent = current.eraseToAnyPublisher()

  func test_relayHandedOverMoved_cancelledInsideReceiveSubscription_outlivesTheCall() {
    for target in Target.allCases {
      let log = Log()
      subscribeRelay(log, to: target, requests: false)
      XCTAssertEqual(log.events, ["relay continues", "relay deinit"], "\(target)")
    }
    for target in [Target.currentValue, .erasedCurrentValue] {
      // Cancelled inside the delivery of the current value, inside receive(subscription:).
      let log = Log()
      subscribeRelay(log, to: target, requests: true)
      XCTAssertEqual(log.events, ["value 7", "relay continues", "relay deinit"], "\(target)")
    }
  }

  func test_relayHandedOverMoved_toACompletedSubject_getsTheCompletion_thenGoes() {
    let subject = PassthroughSubject<Int, Never>()
    subject.send(completion: .finished)
    let log = Log()
    subject._subscribeRelay(TouchingRelay(log, requests: true))
    XCTAssertEqual(log.events, ["relay continues", "completion", "relay deinit"])
  }

  // MARK: Sides of zip and combineLatest
  //
  // A side's subscriber is a reference and a tag, whose reference the subject's subscription
  // adopts without a retain (the side is forgotten, not destroyed): it must be released once,
  // at the cancel or the completion, or when a completed subject refuses it.

  /// A subscriber that records its deinit and everything it receives.
  private final class Recorder<Input>: Subscriber {
    typealias Failure = Never
    let log: Log
    let demand: Subscribers.Demand
    var subscription: Subscription?
    init(_ log: Log, demand: Subscribers.Demand = .unlimited) {
      self.log = log
      self.demand = demand
    }
    deinit { log.events.append("subscriber deinit") }
    func receive(subscription: Subscription) {
      self.subscription = subscription
      subscription.request(demand)
    }
    func receive(_ input: Input) -> Subscribers.Demand {
      log.events.append("value \(input)")
      return .none
    }
    func receive(completion: Subscribers.Completion<Never>) { log.events.append("completion") }
  }

  func test_zipAndCombineLatestOfSubjects_deliverAndLetTheirSidesGoAtCancel() {
    let a = PassthroughSubject<Int, Never>()
    let b = CurrentValueSubject<Int, Never>(10)
    do {
      let log = Log()
      var recorder: Recorder<(Int, Int)>? = Recorder(log)
      a.zip(b.eraseToAnyPublisher()).subscribe(recorder!)
      a.send(1)
      b.send(20)
      XCTAssertEqual(log.events, ["value (1, 10)"])
      recorder?.subscription?.cancel()
      recorder?.subscription = nil
      recorder = nil
      XCTAssertEqual(log.events, ["value (1, 10)", "subscriber deinit"], "the sides let the zip go at the cancel")
      a.send(2)
      XCTAssertEqual(log.events.count, 2)
    }
    do {
      let log = Log()
      var recorder: Recorder<(Int, Int)>? = Recorder(log)
      a.eraseToAnyPublisher().combineLatest(b).subscribe(recorder!)
      a.send(3)
      b.send(30)
      XCTAssertEqual(log.events, ["value (3, 20)", "value (3, 30)"])
      recorder?.subscription?.cancel()
      recorder?.subscription = nil
      recorder = nil
      XCTAssertEqual(log.events.last, "subscriber deinit")
    }
  }

  func test_zipOfSubjects_completedBySubjects_letsTheSidesGo() {
    let log = Log()
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    var recorder: Recorder<(Int, Int)>? = Recorder(log)
    a.zip(b).subscribe(recorder!)
    a.send(1)
    b.send(2)
    a.send(completion: .finished)
    XCTAssertEqual(log.events, ["value (1, 2)", "completion"])
    recorder?.subscription = nil
    recorder = nil
    XCTAssertEqual(log.events.last, "subscriber deinit")
  }

  func test_zipWithACompletedSubject_isRefused_andLetsTheSideGo() {
    let log = Log()
    let done = PassthroughSubject<Int, Never>()
    done.send(completion: .finished)
    let live = PassthroughSubject<Int, Never>()
    var recorder: Recorder<(Int, Int)>? = Recorder(log)
    done.zip(live).subscribe(recorder!)
    XCTAssertEqual(log.events, ["completion"])
    recorder?.subscription = nil
    recorder = nil
    XCTAssertEqual(log.events, ["completion", "subscriber deinit"])
    live.send(1)
    XCTAssertEqual(log.events.count, 2)
  }
}
