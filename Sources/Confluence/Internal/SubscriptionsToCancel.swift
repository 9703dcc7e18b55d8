/// The subscriptions a transition released, to cancel once the lock is let go, in order:
/// ``first``, then ``more``, then ``last``.
///
/// Two of them inline, the rest in an array: the common releases (a `flatMap` with at most
/// one live inner publisher and its upstream; `switchToLatest`'s current inner and its
/// upstream) allocate nothing. An array literal, or an empty array appended to, cost a heap
/// allocation on every cancel, once per operator of a pipeline built and dropped per item.
///
/// ```swift
/// var released = SubscriptionsToCancel()
/// released.append(inner)
/// released.last = .subscribed(upstream)
/// released.cancel()   // inner, then upstream
/// ```
///
/// The two inline are ``SubscriptionStatus``es (anything but `.subscribed` meaning none),
/// not `Subscription?`s: Swift copies and destroys an optional of a non-class existential
/// through the runtime's generic `Optional` value witnesses.
@usableFromInline
package struct SubscriptionsToCancel {
  @usableFromInline package var first: SubscriptionStatus
  @usableFromInline package var more: [Subscription]
  @usableFromInline package var last: SubscriptionStatus

  @inlinable
  package init(first: consuming SubscriptionStatus = .terminal, last: consuming SubscriptionStatus = .terminal) {
    self.first = first
    // Set here, not by a default value, whose initialiser code in a client module calls.
    self.more = []
    self.last = last
  }

  /// Nothing to cancel.
  @inlinable
  package static var none: SubscriptionsToCancel { SubscriptionsToCancel() }

  /// Adds `subscription` after those appended before it (and before ``last``).
  @inlinable
  package mutating func append(_ subscription: consuming Subscription) {
    if !first.isSubscribed {
      first = .subscribed(subscription)
    } else {
      more.append(subscription)
    }
  }

  /// Makes room for `count` subscriptions in all, so that appending them allocates once.
  @inlinable
  package mutating func reserveCapacity(_ count: Int) {
    // The first goes into `first`; the rest into `more`.
    if count > 1 { more.reserveCapacity(count - 1) }
  }

  /// Cancels them all, in order, and lets go of them. Each field is taken out with
  /// `SubscriptionStatus.take()`: a consuming call on a stored field of a copyable struct
  /// copies the field (through the enum's value witness) and destroys the whole afterwards.
  @inlinable
  package consuming func cancel() {
    first.take().cancelSubscription()
    for subscription in more { subscription.cancel() }
    last.take().cancelSubscription()
  }
}
