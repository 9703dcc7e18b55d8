/// Where a subscriber that holds one upstream subscription stands.
@usableFromInline
package enum SubscriptionStatus {
  /// No subscription has arrived yet.
  case awaitingSubscription
  /// Subscribed; the subscription to request from and cancel.
  case subscribed(Subscription)
  /// Completed or cancelled: nothing more is accepted.
  case terminal

  /// Accepts `subscription` if none has arrived yet. Returns `false` if the subscriber
  /// already has one (or has terminated), in which case the caller must cancel the new one.
  @inlinable
  package mutating func accept(_ subscription: Subscription) -> Bool {
    guard case .awaitingSubscription = self else { return false }
    self = .subscribed(subscription)
    return true
  }

  /// Moves to `.terminal` and returns the subscription that was held, if any.
  @inlinable
  package mutating func terminate() -> Subscription? {
    defer { self = .terminal }
    if case .subscribed(let subscription) = self { return subscription }
    return nil
  }

  /// The held subscription, if subscribed.
  @inlinable
  package var subscription: Subscription? {
    if case .subscribed(let subscription) = self { return subscription }
    return nil
  }
}
