/// The upstream subscriptions a fan-in operator's transition hands back to be requested from
/// or cancelled once the lock is released: at most one per side (`c` and `d` stay `nil` for a
/// two-upstream operator, `d` for a three-upstream one).
///
/// Four fields rather than an array: the transitions run on every subscription, request and
/// cancel, and an array literal filtered with `compactMap` cost two heap allocations each
/// time (the erased zip tree makes a zip per leaf).
///
/// Each side is a ``FanInSideStatus`` (anything but `.subscribed` or `.just` meaning none),
/// a few words copied and tested inline: the subscription inside is class-bound
/// (``HeldSubscription``), or a `Just`'s plain data.
@usableFromInline
internal struct FanInUpstreams {
  @usableFromInline internal var a: FanInSideStatus
  @usableFromInline internal var b: FanInSideStatus
  @usableFromInline internal var c: FanInSideStatus
  @usableFromInline internal var d: FanInSideStatus

  @inlinable
  internal init(
    a: consuming FanInSideStatus = .terminal, b: consuming FanInSideStatus = .terminal,
    c: consuming FanInSideStatus = .terminal, d: consuming FanInSideStatus = .terminal
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
  /// `FanInSideStatus.take()`. `mutating`, as ``cancel()`` is: consuming, it was copied
  /// out of the caller's tuple first (through its value witnesses) on every request.
  @inlinable
  internal mutating func request(_ demand: Subscribers.Demand) {
    a.take().requestAndRelease(demand)
    b.take().requestAndRelease(demand)
    c.take().requestAndRelease(demand)
    d.take().requestAndRelease(demand)
  }

  /// Cancels every side and lets go of it, each taken out with `FanInSideStatus.take()`.
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
