/// The upstream subscriptions a two-upstream operator's transition hands back to be
/// requested from or cancelled once the lock is released: at most one per side.
///
/// A pair rather than an array: the transitions run on every subscription, request and
/// cancel, and an array literal filtered with `compactMap` cost two heap allocations each
/// time (the erased zip tree makes a zip per leaf).
@usableFromInline
internal struct FanInUpstreams {
  @usableFromInline internal var a: Subscription?
  @usableFromInline internal var b: Subscription?

  @inlinable
  internal init(a: Subscription? = nil, b: Subscription? = nil) {
    self.a = a
    self.b = b
  }

  /// No upstream.
  @inlinable
  internal static var none: FanInUpstreams { FanInUpstreams() }

  /// Whether there is no upstream.
  @inlinable
  internal var isEmpty: Bool { a == nil && b == nil }

  /// Asks each upstream for `demand`, first `a`, then `b`.
  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    a?.request(demand)
    b?.request(demand)
  }

  /// Cancels each upstream, first `a`, then `b`.
  @inlinable
  internal func cancel() {
    a?.cancel()
    b?.cancel()
  }
}
