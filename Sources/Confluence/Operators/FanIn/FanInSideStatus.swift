/// Where one side of a fan-in operator stands: ``SubscriptionStatus`` with one case more,
/// for a `Just` side subscribed to through a ``FanInJustSubscription``.
///
/// That subscription is plain data, kept as it is: as a ``HeldSubscription`` (class-bound,
/// as operators keep their upstreams) it would need a box, an allocation per `Just`
/// (`rx-combineLatest-creating` 29,192 → 33,961 instructions per pipeline). It is a type of
/// its own rather than a case of ``SubscriptionStatus``: with a second payload that enum
/// was copied and tested through its tags in every operator, `switchToLatest-chain-build-5`
/// 120 instructions more.
///
/// ```swift
/// var side = FanInSideStatus.awaitingSubscription
/// _ = side.accept(just: FanInJustSubscription(parent: fanIn, side: .a, value: 1))
/// side.take().requestAndRelease(.max(1))   // the `Just`'s value goes to the fan-in
/// ```
@usableFromInline
internal enum FanInSideStatus {
  /// No subscription has arrived yet.
  case awaitingSubscription
  /// Subscribed; the subscription to request from and cancel.
  case subscribed(HeldSubscription)
  /// Subscribed to a `Just`, without its subscription object.
  case just(FanInJustSubscription)
  /// Finished, failed or cancelled: nothing more is accepted.
  case terminal

  /// Accepts `subscription` if none has arrived yet. Returns `false` if the side already
  /// has one (or has terminated), in which case the caller must cancel the new one.
  @inlinable
  @inline(__always)
  internal mutating func accept(_ subscription: Subscription) -> Bool {
    accept(making: .subscribed(holdSubscription(subscription)))
  }

  /// As ``accept(_:)``, for a `Just` side.
  @inlinable
  @inline(__always)
  internal mutating func accept(just: FanInJustSubscription) -> Bool {
    accept(making: .just(just))
  }

  /// Becomes `subscribed` if no subscription has arrived yet (evaluated only then).
  @inlinable
  @inline(__always)
  internal mutating func accept(making subscribed: @autoclosure () -> FanInSideStatus) -> Bool {
    guard case .awaitingSubscription = self else { return false }
    self = subscribed()
    return true
  }

  /// Moves to `.terminal` and returns the previous status (by move).
  @inlinable
  internal mutating func take() -> FanInSideStatus {
    let old = consume self
    self = .terminal
    return old
  }

  /// A copy of this status if it holds a subscription, else `.terminal`.
  @inlinable
  internal mutating func copyIfSubscribed() -> FanInSideStatus {
    switch self {
    case .subscribed, .just: return self
    case .awaitingSubscription, .terminal: return .terminal
    }
  }

  /// Whether a subscription is held.
  @inlinable
  internal var isSubscribed: Bool {
    switch self {
    case .subscribed, .just: return true
    case .awaitingSubscription, .terminal: return false
    }
  }

  /// Requests `demand` from the held subscription, if any, and lets go of it. Call it with
  /// no lock held.
  @inlinable
  internal consuming func requestAndRelease(_ demand: Subscribers.Demand) {
    switch consume self {
    case .subscribed(let subscription): subscription.request(demand)
    case .just(let just): just.request(demand)
    case .awaitingSubscription, .terminal: break
    }
  }

  /// Cancels the held subscription, if any. Call it with no lock held. (A `Just`'s
  /// cancel does nothing: see ``FanInJustSubscription``.)
  @inlinable
  internal consuming func cancelSubscription() {
    if case .subscribed(let subscription) = consume self { subscription.cancel() }
  }
}
