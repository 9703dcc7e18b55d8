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
/// released.last = upstream
/// released.cancel()   // inner, then upstream
/// ```
///
/// The two inline and the array hold ``HeldSubscription``s (class-bound): an optional of
/// one is two words with `nil` a null reference, tested and released inline, where an
/// optional of `any Subscription` goes through the runtime's generic `Optional` value
/// witnesses.
@usableFromInline
package struct SubscriptionsToCancel {
  @usableFromInline package var first: HeldSubscription?
  @usableFromInline package var more: [HeldSubscription]
  @usableFromInline package var last: HeldSubscription?

  @inlinable
  package init(first: consuming SubscriptionStatus = .terminal, last: consuming SubscriptionStatus = .terminal) {
    self.first = first.held()
    // Set here, not by a default value, whose initialiser code in a client module calls.
    self.more = []
    self.last = last.held()
  }

  /// Nothing to cancel.
  @inlinable
  package static var none: SubscriptionsToCancel { SubscriptionsToCancel() }

  /// Adds `subscription` after those appended before it (and before ``last``).
  @inlinable
  package mutating func append(_ subscription: consuming HeldSubscription) {
    if first == nil {
      first = subscription
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

  /// Cancels them all, in order, and lets go of them.
  @inlinable
  package consuming func cancel() {
    first?.cancel()
    if !more.isEmpty { cancelMore() }
    last?.cancel()
  }

  /// Cancels those beyond the two inline (out of line: rare, and the loop's iterator is
  /// most of what `cancel()` cost inline).
  @inlinable
  @inline(never)
  internal func cancelMore() {
    for subscription in more { subscription.cancel() }
  }
}
