import Confluence

/// A subscriber for tests that records every event, grants demand as configured, and
/// fails the running test on any breach of the publisher contract.
///
/// It records the subscription (by its `description`, which is what `print` shows), every
/// value, the completion, and every demand it granted — the initial request, each non-zero
/// demand returned from ``receive(_:)``, and each explicit ``request(_:)``. It reports a
/// contract violation, at the line that created it, to the framework running the test (an
/// `Issue` in a Swift Testing test, an `XCTFail` in an XCTest test case) when:
///
/// - a second subscription arrives, or any event arrives before the subscription;
/// - a value arrives beyond the demand granted so far;
/// - anything arrives after a completion, or (when `strictCancellation` is on) after
///   ``cancel()`` returned;
/// - a second completion arrives.
///
/// ```swift
/// let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
/// [1, 2, 3].publisher.subscribe(subscriber)
/// XCTAssertEqual(subscriber.events, [.subscription("[1, 2, 3]"), .value(1), .value(2)])
/// subscriber.request(.max(5))
/// XCTAssertEqual(subscriber.values, [1, 2, 3])
/// XCTAssertEqual(subscriber.demands, [.max(2), .max(5)])
/// ```
///
/// Every method may be called from any thread; events are recorded under a lock, and the
/// hooks run outside it.
public final class TestSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
  // @unchecked Sendable: every mutable field below is read and written only under `lock`;
  // the hooks are set before subscribing and only read afterwards.

  /// One recorded event.
  public enum Event: CustomStringConvertible {
    /// The subscription arrived; its `description`.
    case subscription(String)
    /// A value arrived.
    case value(Input)
    /// The completion arrived.
    case completion(Subscribers.Completion<Failure>)

    public var description: String {
      switch self {
      case .subscription(let description): return "subscription(\(description))"
      case .value(let value): return "value(\(value))"
      case .completion(.finished): return "completion(finished)"
      case .completion(.failure(let error)): return "completion(failure(\(error)))"
      }
    }
  }

  private let lock = Lock()
  private var recorded: [Event] = []
  private var grantedDemands: [Subscribers.Demand] = []
  private var heldSubscription: Subscription?
  private var outstanding = Subscribers.Demand.none
  private var hasCompleted = false
  private var hasCancelled = false
  private var recordedViolations: [String] = []
  /// The test that made it has finished (see ``TestSubscriberRetirement``): its
  /// subscription was cancelled, and events still arriving (from threads the test left
  /// running) are recorded but neither reported nor passed to the hooks.
  private var isRetired = false
  /// The hooks (guarded by `lock`, read before each call and called outside it).
  private var hooks = Hooks()

  private struct Hooks {
    var onValue: ((Input) -> Subscribers.Demand)?
    var onSubscription: ((Subscription) -> Void)?
    var onCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    var onViolation: ((String) -> Void)?
  }

  private let initialDemand: Subscribers.Demand
  private let demandPerValue: Subscribers.Demand
  private let strictCancellation: Bool
  private let location: CheckLocation

  /// Called for each value instead of granting `demandPerValue`; may call ``cancel()`` or
  /// ``request(_:)`` re-entrantly. Its result is the demand returned upstream.
  public var onValue: ((Input) -> Subscribers.Demand)? {
    get { lock.withLock { hooks.onValue } }
    set { lock.withLock { hooks.onValue = newValue } }
  }

  /// Called after the subscription was recorded (and the initial demand requested).
  public var onSubscription: ((Subscription) -> Void)? {
    get { lock.withLock { hooks.onSubscription } }
    set { lock.withLock { hooks.onSubscription = newValue } }
  }

  /// Called after the completion was recorded.
  public var onCompletion: ((Subscribers.Completion<Failure>) -> Void)? {
    get { lock.withLock { hooks.onCompletion } }
    set { lock.withLock { hooks.onCompletion = newValue } }
  }

  /// Called for each contract violation; by default fails the running test.
  public var onViolation: ((String) -> Void)? {
    get { lock.withLock { hooks.onViolation } }
    set { lock.withLock { hooks.onViolation = newValue } }
  }

  /// Creates a test subscriber.
  ///
  /// - Parameters:
  ///   - initialDemand: What to request on subscription; `.none` requests nothing.
  ///   - demandPerValue: What to return from ``receive(_:)`` for each value.
  ///   - strictCancellation: Whether an event after ``cancel()`` returned is a violation.
  ///     Turn it off only where another thread may be mid-delivery when you cancel.
  ///   - fileID: The file a violation is reported in under Swift Testing; the caller's by default.
  ///   - file: The file a violation is reported in under XCTest; the caller's by default.
  ///   - line: The line a violation is reported at; the caller's by default.
  ///   - column: The column a violation is reported at under Swift Testing; the caller's by default.
  public init(
    initialDemand: Subscribers.Demand = .unlimited,
    demandPerValue: Subscribers.Demand = .none,
    strictCancellation: Bool = true,
    fileID: StaticString = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.initialDemand = initialDemand
    self.demandPerValue = demandPerValue
    self.strictCancellation = strictCancellation
    self.location = CheckLocation(fileID: fileID, filePath: file, line: line, column: column)
    TestSubscriberRetirement.shared.register(subscriber: self)
  }

  // MARK: Recorded history

  /// Every event, in order.
  public var events: [Event] { lock.withLock { recorded } }

  /// The values received, in order.
  public var values: [Input] {
    lock.withLock {
      recorded.compactMap { if case .value(let value) = $0 { return value } else { return nil } }
    }
  }

  /// The completion, if one arrived.
  public var completion: Subscribers.Completion<Failure>? {
    lock.withLock {
      for case .completion(let completion) in recorded { return completion }
      return nil
    }
  }

  /// The subscription's description, if one arrived.
  public var subscriptionDescription: String? {
    lock.withLock {
      for case .subscription(let description) in recorded { return description }
      return nil
    }
  }

  /// The events as text, e.g. `["subscription(Just)", "value(1)", "completion(finished)"]`:
  /// handy where `Failure` is not `Equatable`.
  public var eventDescriptions: [String] { events.map(\.description) }

  /// Every demand granted, in order: the initial request, non-zero demands returned from
  /// ``receive(_:)``, and explicit ``request(_:)`` calls.
  public var demands: [Subscribers.Demand] { lock.withLock { grantedDemands } }

  /// The subscription received, until completion or cancel.
  public var subscription: Subscription? { lock.withLock { heldSubscription } }

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool { lock.withLock { hasCancelled } }

  /// The contract violations seen so far.
  public var violations: [String] { lock.withLock { recordedViolations } }

  // MARK: Acting as the subscriber

  /// Requests more values through the subscription it received.
  public func request(_ demand: Subscribers.Demand) {
    let subscription = lock.withLock { () -> Subscription? in
      guard let heldSubscription else { return nil }
      grantedDemands.append(demand)
      outstanding += demand
      return heldSubscription
    }
    subscription?.request(demand)
  }

  /// Cancels the subscription it received and releases it.
  public func cancel() {
    let subscription = lock.withLock { () -> Subscription? in
      hasCancelled = true
      defer { heldSubscription = nil }
      return heldSubscription
    }
    subscription?.cancel()
  }

  // MARK: Subscriber

  public func receive(subscription: Subscription) {
    let problem = lock.withLock { () -> String? in
      let hadSubscription = recorded.contains { if case .subscription = $0 { return true } else { return false } }
      recorded.append(.subscription(String(describing: subscription)))
      if hadSubscription { return "received a second subscription (\(subscription))" }
      heldSubscription = subscription
      if initialDemand > 0 {
        grantedDemands.append(initialDemand)
        outstanding += initialDemand
      }
      return nil
    }
    if let problem {
      report(problem)
      subscription.cancel()
      return
    }
    if initialDemand > 0 {
      subscription.request(initialDemand)
    }
    lock.withLock { hooks.onSubscription }?(subscription)
  }

  public func receive(_ input: Input) -> Subscribers.Demand {
    let problem = lock.withLock { () -> String? in
      recorded.append(.value(input))
      if !recorded.contains(where: { if case .subscription = $0 { return true } else { return false } }) {
        return "received value \(input) before a subscription"
      }
      if hasCompleted { return "received value \(input) after completion" }
      if hasCancelled && strictCancellation { return "received value \(input) after cancel" }
      if outstanding == .none { return "received value \(input) beyond the demand granted (\(grantedDemands))" }
      outstanding -= 1
      return nil
    }
    if let problem { report(problem) }
    let (retired, onValue) = lock.withLock { (isRetired, hooks.onValue) }
    let more = retired ? .none : onValue?(input) ?? demandPerValue
    if more > 0 {
      lock.withLock {
        grantedDemands.append(more)
        outstanding += more
      }
    }
    return more
  }

  public func receive(completion: Subscribers.Completion<Failure>) {
    let problem = lock.withLock { () -> String? in
      recorded.append(.completion(completion))
      let wasCompleted = hasCompleted
      hasCompleted = true
      heldSubscription = nil
      if wasCompleted { return "received a second completion (\(completion))" }
      if hasCancelled && strictCancellation { return "received completion \(completion) after cancel" }
      return nil
    }
    if let problem { report(problem) }
    lock.withLock { isRetired ? nil : hooks.onCompletion }?(completion)
  }

  private func report(_ problem: String) {
    let (retired, onViolation) = lock.withLock { () -> (Bool, ((String) -> Void)?) in
      recordedViolations.append(problem)
      return (isRetired, hooks.onViolation)
    }
    if retired { return }
    if let onViolation {
      onViolation(problem)
    } else {
      reportTestFailure("Contract violation: \(problem)", at: location)
    }
  }
}

extension TestSubscriber: RetirableAtTestEnd {
  internal func retireAtTestEnd() {
    // The hooks may capture what the test made (publishers, subjects, this subscriber):
    // they go too, released outside the lock.
    let (subscription, hooks) = lock.withLock { () -> (Subscription?, Hooks) in
      isRetired = true
      hasCancelled = true
      defer {
        heldSubscription = nil
        self.hooks = Hooks()
      }
      return (heldSubscription, self.hooks)
    }
    subscription?.cancel()
    withExtendedLifetime(hooks) {}
  }
}

extension TestSubscriber.Event: Equatable where Input: Equatable, Failure: Equatable {}

extension TestSubscriber: CustomStringConvertible {
  public var description: String { "TestSubscriber" }
}
