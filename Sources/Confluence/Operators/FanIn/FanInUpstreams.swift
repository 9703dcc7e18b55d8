/// The upstream subscriptions a fan-in operator's transition hands back to be requested from
/// or cancelled once the lock is released: at most one per side (`c` and `d` stay `nil` for a
/// two-upstream operator, `d` for a three-upstream one).
///
/// Four fields rather than an array: the transitions run on every subscription, request and
/// cancel, and an array literal filtered with `compactMap` cost two heap allocations each
/// time (the erased zip tree makes a zip per leaf).
@usableFromInline
internal struct FanInUpstreams {
  @usableFromInline internal var a: Subscription?
  @usableFromInline internal var b: Subscription?
  @usableFromInline internal var c: Subscription?
  @usableFromInline internal var d: Subscription?

  @inlinable
  internal init(a: Subscription? = nil, b: Subscription? = nil, c: Subscription? = nil, d: Subscription? = nil) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
  }

  @inlinable
  internal static var none: FanInUpstreams { FanInUpstreams() }

  @inlinable
  internal var isEmpty: Bool { a == nil && b == nil && c == nil && d == nil }

  /// `consuming`, as ``cancel()``: on a borrowed value, `a?.request(_:)` first copied each
  /// existential out through the runtime's value witnesses (about 80 instructions a side);
  /// on an owned one the optional is taken apart in place.
  @inlinable
  internal consuming func request(_ demand: Subscribers.Demand) {
    a?.request(demand)
    b?.request(demand)
    c?.request(demand)
    d?.request(demand)
  }

  @inlinable
  internal consuming func cancel() {
    a?.cancel()
    b?.cancel()
    c?.cancel()
    d?.cancel()
  }
}
