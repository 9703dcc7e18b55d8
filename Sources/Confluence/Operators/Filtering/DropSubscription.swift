/// `dropFirst(_:)`'s subscription, with Apple's rules as the conformance suite records them:
///
/// - the downstream receives it before upstream is subscribed, and may request at once;
///   that demand waits, and when upstream's subscription arrives the operator asks for
///   it plus the number of values to drop, in one request;
/// - dropped values are answered with `.none` (they were paid for up front);
/// - it never ends: a completion is passed on (every one, as it comes) and a cancel is
///   passed upstream once, and either releases upstream's subscription and leaves the
///   operator waiting for a new one, which gets the demand requested meanwhile plus what
///   is still to drop; values are handled whenever they come.
///
/// Values are passed without taking a lock: upstream serialises them. The lock guards the
/// upstream subscription and the waiting demand.
@usableFromInline
internal final class DropSubscription<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline
  internal let downstream: Downstream

  /// How many values are still to drop; touched only from upstream's serialised events.
  @usableFromInline
  @exclusivity(unchecked)
  internal var remaining: Int

  @usableFromInline
  internal let lock: BiasedLock

  // Guarded by `lock`.
  @usableFromInline
  internal var status = SubscriptionStatus.awaitingSubscription
  @usableFromInline
  internal var waitingDemand = Subscribers.Demand.none

  @inlinable
  internal init(downstream: Downstream, count: Int) {
    lock = BiasedLock()
    self.downstream = downstream
    self.remaining = count
  }

  // MARK: Subscriber (upstream side)

  @inlinable
  internal func receive(subscription: Subscription) {
    let demand = lock.withLock { () -> Subscribers.Demand? in
      guard status.accept(subscription) else { return nil }
      defer { waitingDemand = .none }
      return remaining > 0 ? waitingDemand + remaining : waitingDemand
    }
    guard let demand else {
      subscription.cancel()
      return
    }
    if demand != .none { subscription.request(demand) }
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    if remaining > 0 {
      remaining -= 1
      return .none
    }
    return downstream.receive(input)
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    let released = lock.withLock { () -> SubscriptionStatus in
      let old = status.take()
      status = .awaitingSubscription
      return old
    }
    _fixLifetime(released)
    downstream.receive(completion: completion)
  }

  // MARK: Subscription (downstream side)

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    lock.withLock { () -> Subscription? in
      switch status {
      case .awaitingSubscription:
        waitingDemand += demand
        return nil
      case .subscribed(let subscription):
        return subscription
      case .terminal:
        return nil
      }
    }?.request(demand)
  }

  @inlinable
  internal func cancel() {
    lock.withLock { () -> Subscription? in
      guard case .subscribed = status else { return nil }
      defer { status = .awaitingSubscription }
      return status.terminate()
    }?.cancel()
  }

  // MARK: Descriptions

  @usableFromInline
  internal var description: String { "Drop" }

  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
