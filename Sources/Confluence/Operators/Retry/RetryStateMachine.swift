/// The state of one `retry` subscription, guarded by its lock. Pure bookkeeping: each
/// transition returns what ``RetrySubscription`` must do once the lock is released.
///
/// Apple's rules, as its documentation and the recorded behaviour give them:
/// - downstream is handed the subscription once, with the first attempt's subscription;
///   later attempts are asked for the demand still owed (`requested + returned -
///   delivered`, counting values that arrived between attempts);
/// - a value before the first subscription traps, a value nobody asked for traps, a value
///   after the end is ignored;
/// - a failure starts a new attempt while retries remain (a negative or `nil` count never
///   runs out), then goes downstream; a finish goes downstream (also one that arrives
///   before any subscription);
/// - downstream's further demand for a value is requested from the current attempt, not
///   returned from `receive(_:)`;
/// - downstream is released at completion and at cancel.
@usableFromInline
internal struct RetryStateMachine<Downstream: Subscriber> {
  /// Where the current attempt stands.
  @usableFromInline
  internal enum Attempt {
    /// Waiting for an attempt's subscription.
    case awaiting
    case subscribed(Subscription)
    /// Completed or cancelled, for good.
    case done
  }

  /// What to do with an attempt's subscription.
  @usableFromInline
  internal enum SubscriptionAction {
    /// Not wanted (a second subscription, or after the end): cancel it.
    case cancelSubscription
    /// The first attempt: hand downstream the retry subscription.
    case subscribeDownstream(Downstream)
    /// A later attempt: ask it for what is still owed (nothing when the demand is `.none`).
    case requestFromAttempt(Subscribers.Demand)
  }

  /// What to do with a value.
  @usableFromInline
  internal enum ValueAction {
    case ignore
    case deliver(Downstream)
    /// A value before the first subscription (Apple's traps).
    case trapBeforeSubscription
  }

  /// What to do with upstream's `.finished`.
  @usableFromInline
  internal enum FinishAction {
    case ignore
    case finish(Downstream)
  }

  /// What to do with upstream's failure.
  @usableFromInline
  internal enum FailureAction {
    case ignore
    /// The attempts are used up: the failure goes downstream.
    case fail(Downstream)
    /// Subscribe to upstream again, now.
    case resubscribe
  }

  @usableFromInline internal var attempt = Attempt.awaiting
  /// Released when the subscription ends (completion or cancel).
  @usableFromInline internal var downstream: Downstream?
  /// `nil`: retries without limit.
  @usableFromInline internal var remainingRetries: Int?
  @usableFromInline internal var requested = Subscribers.Demand.none
  /// Values delivered and demand downstream returned since `requested` was last settled.
  @usableFromInline internal var delivered = 0
  @usableFromInline internal var returned = Subscribers.Demand.none
  @usableFromInline internal var hasSubscribedDownstream = false
  /// A call to `upstream.subscribe` is on the stack: an attempt that fails meanwhile is
  /// started by that call's loop (so the stack stays flat), not by the failure.
  @usableFromInline internal var isSubscribing = false
  @usableFromInline internal var needsResubscribe = false

  @inlinable
  internal init(downstream: Downstream, retries: Int?) {
    self.downstream = downstream
    // As Apple's, a negative count never runs out: it retries without limit.
    self.remainingRetries = retries.flatMap { $0 < 0 ? nil : $0 }
  }

  @inlinable
  internal mutating func subscribeCallStarted() {
    isSubscribing = true
    needsResubscribe = false
  }

  /// Returns whether an attempt failed during the call and another must start.
  @inlinable
  internal mutating func subscribeCallEnded() -> Bool {
    isSubscribing = false
    return needsResubscribe
  }

  @inlinable
  internal mutating func attemptSubscribed(_ subscription: Subscription) -> SubscriptionAction {
    guard case .awaiting = attempt else { return .cancelSubscription }
    attempt = .subscribed(subscription)
    if !hasSubscribedDownstream {
      hasSubscribedDownstream = true
      return downstream.map { .subscribeDownstream($0) } ?? .cancelSubscription
    }
    return .requestFromAttempt(settleDemand())
  }

  @inlinable
  internal mutating func valueArrived() -> ValueAction {
    if case .done = attempt { return .ignore }
    guard hasSubscribedDownstream else { return .trapBeforeSubscription }
    guard let downstream else { return .ignore }
    confluencePrecondition(
      requested + returned - delivered > 0, "Retry: the upstream sent a value it was not asked for")
    delivered += 1
    return .deliver(downstream)
  }

  /// Downstream asked for `more` in return for a value: the attempt to ask, if one runs.
  @inlinable
  internal mutating func downstreamReturned(_ more: Subscribers.Demand) -> Subscription? {
    returned += more
    if case .subscribed(let subscription) = attempt { return subscription }
    return nil
  }

  @inlinable
  internal mutating func upstreamFinished() -> FinishAction {
    switch attempt {
    case .subscribed:
      break
    case .awaiting where !hasSubscribedDownstream:
      break  // as Apple's, a finish before any subscription is passed on
    case .awaiting, .done:
      return .ignore
    }
    attempt = .done
    return takeDownstream().map { .finish($0) } ?? .ignore
  }

  @inlinable
  internal mutating func upstreamFailed() -> FailureAction {
    guard case .subscribed = attempt else { return .ignore }
    if let remaining = remainingRetries {
      guard remaining > 0 else {
        attempt = .done
        return takeDownstream().map { .fail($0) } ?? .ignore
      }
      remainingRetries = remaining - 1
    }
    attempt = .awaiting
    _ = settleDemand()
    if isSubscribing {
      needsResubscribe = true
      return .ignore
    }
    return .resubscribe
  }

  /// Downstream's request: the attempt to pass it to, if one runs.
  @inlinable
  internal mutating func downstreamRequested(_ demand: Subscribers.Demand) -> Subscription? {
    switch attempt {
    case .done:
      return nil
    case .awaiting:
      requested += demand
      return nil
    case .subscribed(let subscription):
      requested += demand
      return subscription
    }
  }

  /// Downstream cancelled: the attempt to cancel, if one runs.
  @inlinable
  internal mutating func cancelled() -> Subscription? {
    defer {
      attempt = .done
      downstream = nil
    }
    if case .subscribed(let subscription) = attempt { return subscription }
    return nil
  }

  /// The demand still owed by upstream, made the new base of the count.
  @inlinable
  internal mutating func settleDemand() -> Subscribers.Demand {
    requested = requested + returned - delivered
    delivered = 0
    returned = .none
    return requested
  }

  /// Hands the downstream over for the last event and forgets it.
  @inlinable
  internal mutating func takeDownstream() -> Downstream? {
    defer { downstream = nil }
    return downstream
  }
}
