import Confluence
import ConfluenceTesting

/// A hand-driven publisher for the extras tests: the test sends values and completions, and
/// reads back what its subscriber requested and whether it cancelled.
///
/// Like a subject, it honours demand (a value without outstanding demand is not delivered and
/// `send` returns `false`) and holds its subscriber strongly until cancel or completion, so a
/// lifetime test can see whether an operator lets go of it. Each `subscribe` starts a new
/// subscription; `send` goes to the latest live one.
final class ManualPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
  // @unchecked Sendable: `subscriptions` is touched only under `lock`.
  private let lock = Lock()
  private var subscriptions: [ManualSubscription] = []

  init() {}

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let subscription = ManualSubscription(AnySubscriber(subscriber))
    lock.withLock { subscriptions.append(subscription) }
    subscriber.receive(subscription: subscription)
  }

  /// How many times it was subscribed to.
  var subscriptionCount: Int { lock.withLock { subscriptions.count } }

  /// The latest subscription, if any.
  var current: ManualSubscription? { lock.withLock { subscriptions.last } }

  /// Every demand requested through the latest subscription (explicit requests and non-zero
  /// demand returned from `receive(_:)`), in order.
  var demands: [Subscribers.Demand] { current?.demands ?? [] }

  /// Whether the latest subscription was cancelled.
  var isCancelled: Bool { current?.isCancelled ?? false }

  /// Whether the latest subscription still holds its subscriber.
  var hasSubscriber: Bool { current?.hasSubscriber ?? false }

  /// Sends `value` to the latest subscription if it has demand; returns whether it did.
  @discardableResult
  func send(_ value: Output) -> Bool { current?.send(value) ?? false }

  /// Completes the latest subscription.
  func send(completion: Subscribers.Completion<Failure>) { current?.send(completion: completion) }

  final class ManualSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
    // @unchecked Sendable: every field is touched only under `lock`.
    private let lock = Lock()
    private var subscriber: AnySubscriber<Output, Failure>?
    private var outstanding = Subscribers.Demand.none
    private var requested: [Subscribers.Demand] = []
    private var cancelled = false

    init(_ subscriber: AnySubscriber<Output, Failure>) {
      self.subscriber = subscriber
    }

    var demands: [Subscribers.Demand] { lock.withLock { requested } }
    var isCancelled: Bool { lock.withLock { cancelled } }
    var hasSubscriber: Bool { lock.withLock { subscriber != nil } }
    var outstandingDemand: Subscribers.Demand { lock.withLock { outstanding } }

    func send(_ value: Output) -> Bool {
      let target = lock.withLock { () -> AnySubscriber<Output, Failure>? in
        guard let subscriber, outstanding > 0 else { return nil }
        outstanding -= 1
        return subscriber
      }
      guard let target else { return false }
      let more = target.receive(value)
      if more > 0 {
        lock.withLock {
          requested.append(more)
          outstanding += more
        }
      }
      return true
    }

    func send(completion: Subscribers.Completion<Failure>) {
      let target = lock.withLock { () -> AnySubscriber<Output, Failure>? in
        defer { subscriber = nil }
        return subscriber
      }
      target?.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
      lock.withLock {
        requested.append(demand)
        outstanding += demand
      }
    }

    func cancel() {
      let released = lock.withLock { () -> AnySubscriber<Output, Failure>? in
        cancelled = true
        defer { subscriber = nil }
        return subscriber
      }
      withExtendedLifetime(released) {}
    }

    var description: String { "Manual" }
  }
}

/// A value whose life a ``LifetimeTracker`` counts, for checking that operators let go of
/// the values they hold.
struct TrackedValue: CustomStringConvertible {
  let value: Int
  let probe: LifetimeTracker.Tracked

  init(_ value: Int, _ tracker: LifetimeTracker) {
    self.value = value
    self.probe = tracker.make()
  }

  var description: String { String(value) }
}
