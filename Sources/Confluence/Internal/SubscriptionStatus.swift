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
    accept(making: .subscribed(subscription))
  }

  /// As ``accept(_:)``, for a subscription of a type known here, which becomes the
  /// existential inside. (Handed a temporary existential, `accept(_:)` was given a variant
  /// that takes its argument owned, which every other caller then used, copying theirs.)
  @inlinable
  package mutating func accept<Known: Subscription>(known subscription: Known) -> Bool {
    accept(making: .subscribed(subscription))
  }

  /// Becomes `subscribed` if no subscription has arrived yet (evaluated only then).
  @inlinable
  @inline(__always)
  internal mutating func accept(making subscribed: @autoclosure () -> SubscriptionStatus) -> Bool {
    // Moved out and back, not switched over in place: a `switch` over the borrowed enum (an
    // existential inside, so handled by address) copies and destroys the whole value.
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
  ///
  /// The subscription is moved out, not copied: `Subscription` is not class-bound, so a
  /// copy (and the destroy of the old value that follows it) would go through the
  /// existential's value witnesses, a measurable share of a short-lived subscription.
  @inlinable
  package mutating func terminate() -> Subscription? {
    switch consume self {
    case .subscribed(let subscription):
      self = .terminal
      return subscription
    case .awaitingSubscription, .terminal:
      self = .terminal
      return nil
    }
  }

  /// Moves to `.terminal` and returns the previous status (by move). Cheaper than
  /// ``terminate()`` when the caller only releases or cancels what it gets: a
  /// `Subscription?` is copied and destroyed through the runtime's generic `Optional`
  /// value witnesses, this enum through its own.
  @inlinable
  package mutating func take() -> SubscriptionStatus {
    let old = consume self
    self = .terminal
    return old
  }

  /// As ``take()``, except that before any subscription arrived it changes nothing and
  /// returns `.awaitingSubscription`; calls `whenTaken` when it moved to `.terminal`. The
  /// status is moved, not copied: `if case .awaitingSubscription = status` copies the whole
  /// enum (an existential inside) through its value witnesses.
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

  /// A copy of this status if it holds a subscription, else `.terminal`: the status is
  /// moved out and back (no copy of the whole enum through its value witnesses), and only
  /// the subscription inside is copied.
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

  /// Cancels the held subscription, if any. Call it with no lock held.
  @inlinable
  package consuming func cancelSubscription() {
    if case .subscribed(let subscription) = consume self {
      subscription.cancel()
    }
  }

  /// Requests `demand` from the held subscription, if any. Call it with no lock held.
  @inlinable
  package func request(_ demand: Subscribers.Demand) {
    if case .subscribed(let subscription) = self {
      subscription.request(demand)
    }
  }

  /// Whether a subscription is held.
  ///
  /// A `mutating` getter that moves the value out and back: a `switch` over a borrowed value
  /// of this enum (an existential inside, so it is handled by address) copies the whole
  /// value first, a retain and a value-witness call to read a tag.
  @inlinable
  package var isSubscribed: Bool {
    mutating get {
      switch consume self {
      case .subscribed(let subscription):
        self = .subscribed(subscription)
        return true
      case .awaitingSubscription:
        self = .awaitingSubscription
        return false
      case .terminal:
        self = .terminal
        return false
      }
    }
  }

  /// Requests `demand` from the held subscription, if any, and lets go of it. Call it with
  /// no lock held. (Consumed, so the subscription is moved out rather than copied.)
  @inlinable
  package consuming func requestAndRelease(_ demand: Subscribers.Demand) {
    if case .subscribed(let subscription) = consume self {
      subscription.request(demand)
    }
  }

  /// The held subscription, if subscribed.
  @inlinable
  package var subscription: Subscription? {
    if case .subscribed(let subscription) = self { return subscription }
    return nil
  }
}
