/// The upstream subscriptions a fan-in operator's transition hands back to be requested from
/// or cancelled once the lock is released: at most one per side (`c` and `d` stay `nil` for a
/// two-upstream operator, `d` for a three-upstream one).
///
/// Four fields rather than an array: the transitions run on every subscription, request and
/// cancel, and an array literal filtered with `compactMap` cost two heap allocations each
/// time (the erased zip tree makes a zip per leaf).
///
/// Each side is a ``SubscriptionStatus`` (anything but `.subscribed` meaning none), not a
/// `Subscription?`: Swift copies and destroys an optional of a non-class existential through
/// the runtime's generic `Optional` value witnesses (a metadata look-up and a call per side),
/// and `SubscriptionStatus` through code of its own.
@usableFromInline
internal struct FanInUpstreams {
  @usableFromInline internal var a: SubscriptionStatus
  @usableFromInline internal var b: SubscriptionStatus
  @usableFromInline internal var c: SubscriptionStatus
  @usableFromInline internal var d: SubscriptionStatus

  @inlinable
  internal init(
    a: consuming SubscriptionStatus = .terminal, b: consuming SubscriptionStatus = .terminal,
    c: consuming SubscriptionStatus = .terminal, d: consuming SubscriptionStatus = .terminal
  ) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
  }

  @inlinable
  internal static var none: FanInUpstreams { FanInUpstreams() }

  @inlinable
  internal var isEmpty: Bool {
    mutating get { !a.isSubscribed && !b.isSubscribed && !c.isSubscribed && !d.isSubscribed }
  }

  /// Requests `demand` from every side and lets go of them, each taken out with
  /// `SubscriptionStatus.take()`. `mutating`, as ``cancel()`` is: consuming, it was copied
  /// out of the caller's tuple first (through its value witnesses) on every request.
  @inlinable
  internal mutating func request(_ demand: Subscribers.Demand) {
    a.take().requestAndRelease(demand)
    b.take().requestAndRelease(demand)
    c.take().requestAndRelease(demand)
    d.take().requestAndRelease(demand)
  }

  /// Cancels every side and lets go of it, each taken out with `SubscriptionStatus.take()`.
  /// `mutating`, not `consuming` as ``request(_:)`` and `SubscriptionsToCancel.cancel()`
  /// are: measured, consuming here cost `zip-just-tree-7` 2,700 more instructions (the
  /// callers' `Next` payloads are then copied out to be consumed).
  @inlinable
  internal mutating func cancel() {
    a.take().cancelSubscription()
    b.take().cancelSubscription()
    c.take().cancelSubscription()
    d.take().cancelSubscription()
  }
}
