/// Where a subscriber that holds one upstream subscription stands.
///
/// Loadable: the subscription is held class-bound (``HeldSubscription``), so the enum is a
/// few words that Swift copies, tests and destroys inline. Around an `any Subscription`
/// (not class-bound) it was handled by address, through the runtime's value witnesses, a
/// call to read a tag and two to destroy a status already taken. The methods still move
/// the status out and back rather than switch over it in place, which spares a retain and
/// a release of the subscription inside.
@usableFromInline
package enum SubscriptionStatus {
  /// No subscription has arrived yet.
  case awaitingSubscription
  /// Subscribed; the subscription to request from and cancel.
  case subscribed(HeldSubscription)
  /// Completed or cancelled: nothing more is accepted.
  case terminal

  /// Accepts `subscription` if none has arrived yet. Returns `false` if the subscriber
  /// already has one (or has terminated), in which case the caller must cancel the new one.
  @inlinable
  @inline(__always)
  package mutating func accept(_ subscription: Subscription) -> Bool {
    accept(making: .subscribed(holdSubscription(subscription)))
  }

  /// As ``accept(_:)``, for a subscription of a type known here (the optimiser then knows
  /// the class whose reference it holds).
  @inlinable
  package mutating func accept<Known: Subscription>(known subscription: Known) -> Bool {
    accept(making: .subscribed(holdSubscription(known: subscription)))
  }

  /// Becomes `subscribed` if no subscription has arrived yet (evaluated only then).
  @inlinable
  @inline(__always)
  internal mutating func accept(making subscribed: @autoclosure () -> SubscriptionStatus) -> Bool {
    switch consume self {
    case .awaitingSubscription:
      self = subscribed()
      return true
    case let other:
      self = other
      return false
    }
  }

  /// Moves to `.terminal` and returns the subscription that was held, if any.
  @inlinable
  package mutating func terminate() -> HeldSubscription? {
    take().held()
  }

  /// Moves to `.terminal` and returns the previous status (by move).
  @inlinable
  package mutating func take() -> SubscriptionStatus {
    let old = consume self
    self = .terminal
    return old
  }

  /// As ``take()``, except that before any subscription arrived it changes nothing and
  /// returns `.awaitingSubscription`; calls `whenTaken` when it moved to `.terminal`.
  @inlinable
  package mutating func takeUnlessAwaitingSubscription(whenTaken: () -> Void) -> SubscriptionStatus {
    switch consume self {
    case .awaitingSubscription:
      self = .awaitingSubscription
      return .awaitingSubscription
    case let other:
      self = .terminal
      whenTaken()
      return other
    }
  }

  /// A copy of this status if it holds a subscription, else `.terminal`.
  @inlinable
  package mutating func copyIfSubscribed() -> SubscriptionStatus {
    switch consume self {
    case .subscribed(let subscription):
      self = .subscribed(subscription)
      return .subscribed(subscription)
    case let other:
      self = other
      return .terminal
    }
  }

  /// The held subscription, if any, moved out.
  @inlinable
  package consuming func held() -> HeldSubscription? {
    if case .subscribed(let subscription) = consume self { return subscription }
    return nil
  }

  /// Cancels the held subscription, if any. Call it with no lock held.
  @inlinable
  package consuming func cancelSubscription() {
    if case .subscribed(let subscription) = consume self { subscription.cancel() }
  }

  /// Requests `demand` from the held subscription, if any. Call it with no lock held.
  @inlinable
  package func request(_ demand: Subscribers.Demand) {
    if case .subscribed(let subscription) = self { subscription.request(demand) }
  }

  /// Whether a subscription is held.
  @inlinable
  package var isSubscribed: Bool {
    mutating get {
      if case .subscribed = self { return true }
      return false
    }
  }

  /// Requests `demand` from the held subscription, if any, and lets go of it. Call it with
  /// no lock held.
  @inlinable
  package consuming func requestAndRelease(_ demand: Subscribers.Demand) {
    if case .subscribed(let subscription) = consume self { subscription.request(demand) }
  }

  /// The held subscription, if subscribed.
  @inlinable
  package var subscription: HeldSubscription? {
    if case .subscribed(let subscription) = self { return subscription }
    return nil
  }
}
