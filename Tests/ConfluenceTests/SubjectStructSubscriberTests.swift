import Confluence
import XCTest

/// A subscriber that is a structure, small or large, attached to a subject: it receives what a
/// class would, shows in the conduit's mirror, and is let go of when the subscription is
/// cancelled or completed (not when the conduit itself goes), whichever path ends it.
final class SubjectStructSubscriberTests: XCTestCase {
  private final class Log {
    var values: [Int] = []
    var completions: [Subscribers.Completion<Never>] = []
    var subscription: Subscription?
  }

  private final class Token {
    var onDeinit: () -> Void = {}
    deinit { onDeinit() }
  }

  /// Two words.
  private struct Small: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    let log: Log
    let owner: Token
    var combineIdentifier: CombineIdentifier { CombineIdentifier(log) }
    func receive(subscription: Subscription) {
      log.subscription = subscription
      subscription.request(.unlimited)
    }
    func receive(_ input: Int) -> Subscribers.Demand {
      log.values.append(input)
      return .none
    }
    func receive(completion: Subscribers.Completion<Never>) { log.completions.append(completion) }
  }

  /// Five words.
  private struct Large: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    let log: Log
    let owner: Token
    let padding: (Int, Int, Int) = (1, 2, 3)
    var combineIdentifier: CombineIdentifier { CombineIdentifier(log) }
    func receive(subscription: Subscription) {
      log.subscription = subscription
      subscription.request(.unlimited)
    }
    func receive(_ input: Int) -> Subscribers.Demand {
      log.values.append(input + padding.0 + padding.1 + padding.2 - 6)
      return .none
    }
    func receive(completion: Subscribers.Completion<Never>) { log.completions.append(completion) }
  }

  /// Re-enters the subject from inside the subscriber's own calls, as `act` says.
  private struct Reentrant: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    enum Act {
      /// Completes the subject inside `receive(subscription:)` (and requests nothing).
      case completeInsideReceiveSubscription
      /// On the value 2, sends 3 (queued: this thread is delivering), then cancels.
      case sendThenCancelInsideReceiveOfTwo
    }
    let act: Act
    let subject: PassthroughSubject<Int, Never>
    let log: Log
    let owner: Token
    var combineIdentifier: CombineIdentifier { CombineIdentifier(log) }
    func receive(subscription: Subscription) {
      log.subscription = subscription
      switch act {
      case .completeInsideReceiveSubscription:
        subject.send(completion: .finished)
        XCTAssertEqual(log.completions.count, 0, "not inside receive(subscription:)")
      case .sendThenCancelInsideReceiveOfTwo:
        subscription.request(.unlimited)
      }
    }
    func receive(_ input: Int) -> Subscribers.Demand {
      log.values.append(input)
      if act == .sendThenCancelInsideReceiveOfTwo, input == 2 {
        subject.send(3)
        log.subscription?.cancel()
      }
      return .none
    }
    func receive(completion: Subscribers.Completion<Never>) { log.completions.append(completion) }
  }

  /// Runs `subscribe` with a fresh token that only what it subscribes holds; returns the
  /// token, weakly, to tell when the subscriber is let go of.
  private func ownedToken(_ subscribe: (Token) -> Void) -> () -> Token? {
    let token = Token()
    subscribe(token)
    return { [weak token] in token }
  }

  /// Subscribes the subscriber `make` builds around a token, runs `live`, then `end`; checks
  /// the token (and so the subscriber) is alive in between and gone after `end`.
  private func check(
    subscribe: (Log, Token) -> Void, live: (Log) -> Void, end: (Log) -> Void,
    file: StaticString = #filePath, line: UInt = #line
  ) -> Log {
    let log = Log()
    let weakToken = ownedToken { subscribe(log, $0) }
    live(log)
    XCTAssertNotNil(weakToken(), "held while the subscription lives", file: file, line: line)
    do {
      // The mirror's copy of the subscriber holds the token too: gone at the end of this scope.
      let shown = log.subscription.flatMap { Mirror(reflecting: $0).descendant("downstream") }
      XCTAssertTrue(shown is Small || shown is Large, String(describing: shown), file: file, line: line)
    }
    end(log)
    XCTAssertNil(weakToken(), "let go of when the subscription ends", file: file, line: line)
    let after = log.subscription.flatMap { Mirror(reflecting: $0).descendant("downstream") }
    XCTAssertEqual(after.map { String(describing: $0) }, "nil", file: file, line: line)
    return log
  }

  func test_small_passthrough_deliversAndIsLetGoOfAtCancel() {
    let subject = PassthroughSubject<Int, Never>()
    let log = check(
      subscribe: { subject.subscribe(Small(log: $0, owner: $1)) },
      live: { _ in
        subject.send(1)
        subject.send(2)
      },
      end: { $0.subscription?.cancel() })
    subject.send(3)
    XCTAssertEqual(log.values, [1, 2])
    XCTAssertEqual(log.completions.count, 0)
  }

  func test_large_passthrough_deliversAndIsLetGoOfAtCancel() {
    let subject = PassthroughSubject<Int, Never>()
    let log = check(
      subscribe: { subject.subscribe(Large(log: $0, owner: $1)) },
      live: { _ in
        subject.send(1)
        subject.send(2)
      },
      end: { $0.subscription?.cancel() })
    subject.send(3)
    XCTAssertEqual(log.values, [1, 2])
  }

  func test_small_currentValue_isLetGoOfAtCompletion() {
    let subject = CurrentValueSubject<Int, Never>(7)
    let log = check(
      subscribe: { subject.subscribe(Small(log: $0, owner: $1)) },
      live: { _ in subject.send(8) },
      end: { _ in subject.send(completion: .finished) })
    XCTAssertEqual(log.values, [7, 8])
    XCTAssertEqual(log.completions, [.finished])
  }

  func test_large_currentValue_isLetGoOfAtCompletion() {
    let subject = CurrentValueSubject<Int, Never>(7)
    let log = check(
      subscribe: { subject.subscribe(Large(log: $0, owner: $1)) },
      live: { _ in subject.send(8) },
      end: { _ in subject.send(completion: .finished) })
    XCTAssertEqual(log.values, [7, 8])
    XCTAssertEqual(log.completions, [.finished])
  }

  func test_small_throughAnyPublisher_isLetGoOfAtCancel() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let log = check(
      subscribe: { subject.eraseToAnyPublisher().subscribe(Small(log: $0, owner: $1)) },
      live: { _ in subject.send(2) },
      end: { $0.subscription?.cancel() })
    XCTAssertEqual(log.values, [1, 2])
  }

  /// A subscriber attaching to a subject that has completed gets the completion at once and is
  /// not kept.
  func test_small_subscribingAfterCompletion_getsItAndIsNotKept() {
    let subject = PassthroughSubject<Int, Never>()
    subject.send(completion: .finished)
    let log = Log()
    let weakToken = ownedToken { subject.subscribe(Small(log: log, owner: $0)) }
    XCTAssertEqual(log.completions, [.finished])
    XCTAssertNil(weakToken())
  }

  /// The completion arrives while the subscriber is inside `receive(subscription:)`: it is
  /// delivered when that returns, and the subscriber is let go of then.
  func test_small_completionDuringReceiveSubscription_isDeliveredAfterItAndLetsGo() {
    let subject = PassthroughSubject<Int, Never>()
    let log = Log()
    let weakToken = ownedToken {
      subject.subscribe(
        Reentrant(act: .completeInsideReceiveSubscription, subject: subject, log: log, owner: $0))
    }
    XCTAssertEqual(log.completions, [.finished])
    XCTAssertNil(weakToken())
  }

  /// Cancelling from inside `receive(_:)` ends delivery; the subscriber is let go of when the
  /// delivery returns, and a value queued by a re-entrant send is dropped.
  func test_small_cancelInsideReceive_dropsTheQueueAndLetsGo() {
    let subject = PassthroughSubject<Int, Never>()
    let log = Log()
    let weakToken = ownedToken {
      subject.subscribe(
        Reentrant(act: .sendThenCancelInsideReceiveOfTwo, subject: subject, log: log, owner: $0))
    }
    subject.send(1)
    subject.send(2)
    XCTAssertNil(weakToken())
    subject.send(4)
    XCTAssertEqual(log.values, [1, 2])
  }

  /// Letting the subscriber go runs its owner's deinit, which cancels the subscription again
  /// and sends to the subject: neither reaches the subscriber that is being let go of.
  func test_small_lettingGoReentersTheConduit_harmlessly() {
    let subject = PassthroughSubject<Int, Never>()
    let log = Log()
    var deinitRan = false
    _ = ownedToken { token in
      token.onDeinit = { [log] in
        deinitRan = true
        log.subscription?.cancel()
        subject.send(99)
      }
      subject.subscribe(Small(log: log, owner: token))
    }
    subject.send(1)
    log.subscription?.cancel()
    XCTAssertTrue(deinitRan)
    XCTAssertEqual(log.values, [1])
  }

  /// Operators that subscribe to a subject with a structure (`map`, a fan-in's sides) keep
  /// working through many subscribe–cancel rounds, each letting its subscriber go.
  func test_operatorsSubscribingWithStructures_subscribeAndCancelRepeatedly() {
    let a = CurrentValueSubject<Int, Never>(1)
    let b = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    for round in 0..<100 {
      let mapped = a.map { $0 * 10 }.sink { received.append($0) }
      let zipped = a.zip(b).map { $0 + $1 }.sink { received.append($0) }
      b.send(round)
      mapped.cancel()
      zipped.cancel()
    }
    let expected = (0..<100).flatMap { [10, 1 + $0] }
    XCTAssertEqual(received, expected)
  }
}
