/// The state of one `throttle(for:scheduler:latest:)` subscription, as a pure value: each
/// transition returns what its ``ThrottleSubscription`` must do once it released its lock.
///
/// Apple's rules, kept here:
/// - Upstream's subscription is accepted once (another is cancelled); events before it are
///   ignored. A cancel before it is remembered: the subscription is cancelled when it
///   arrives (unlike `debounce`, which forgets such a cancel).
/// - A window ends at the last emission plus the interval, not at the arrival of the value
///   that opened it. A value arriving when nothing was emitted for at least the interval (or
///   nothing yet) is emitted as soon as possible; a sooner one is emitted when the window
///   ends. Until then the value waiting is replaced by each newer one (`latest`) or kept
///   (the first of the window). One emission is scheduled at a time.
/// - A value that arrives while the downstream has no outstanding demand schedules nothing
///   and is dropped. An emission delivers the waiting value only against outstanding
///   demand; with none (the downstream used it up meanwhile), the value is dropped (as
///   `debounce` drops one). Demand requested later does not bring it back, and a request
///   schedules nothing.
/// - A completion (finished or failed) that arrives while an emission is scheduled goes
///   out with it, after the waiting value; otherwise it is scheduled on its own, as soon as
///   possible. After upstream completed, its further events are ignored.
/// - A cancel ends everything at once: the downstream and the waiting value are let go, and
///   an emission still queued on the scheduler finds nothing to do.
@usableFromInline
internal struct ThrottleStateMachine<Downstream: Subscriber, Context: Scheduler> {
  @usableFromInline
  internal enum Phase {
    case awaitingSubscription
    case subscribed(Subscription)
    /// Upstream completed; the completion waits to be delivered on the scheduler.
    case completing(Subscribers.Completion<Downstream.Failure>)
    case terminal
  }

  /// What to do with upstream's subscription.
  @usableFromInline
  internal enum SubscriptionAction {
    case cancelSubscription
    case sendSubscriptionDownstreamAndRequestUnlimited(Downstream)
  }

  /// What to do after a value arrived.
  @usableFromInline
  internal enum ValueAction {
    case none
    case scheduleEmissionNow
    case scheduleEmission(at: Context.SchedulerTimeType)
  }

  /// What to do after upstream completed.
  @usableFromInline
  internal enum CompletionAction {
    case none
    /// Nothing is scheduled: schedule the completion's delivery.
    case scheduleCompletion
  }

  /// What a scheduled emission (or completion) does.
  @usableFromInline
  internal enum EmissionAction {
    case none
    /// Deliver the value; if `then` is set, deliver that completion after it unless the
    /// downstream cancelled meanwhile (ask with ``shouldCompleteAfterValue()``).
    case deliver(Downstream, Downstream.Input, then: Subscribers.Completion<Downstream.Failure>?)
    case complete(Downstream, Subscribers.Completion<Downstream.Failure>)
  }

  @usableFromInline internal let interval: Context.SchedulerTimeType.Stride
  @usableFromInline internal let latest: Bool
  @usableFromInline internal var phase = Phase.awaitingSubscription
  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var demand = Subscribers.Demand.none
  /// The value the next emission delivers.
  @usableFromInline internal var waiting: Downstream.Input?
  @usableFromInline internal var emissionScheduled = false
  @usableFromInline internal var lastEmission: Context.SchedulerTimeType?

  @inlinable
  internal init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, latest: Bool) {
    self.downstream = downstream
    self.interval = interval
    self.latest = latest
  }

  /// Whether upstream events still count (subscribed, not completed, not cancelled).
  @inlinable
  internal var acceptsUpstreamEvents: Bool {
    if case .subscribed = phase { return true }
    return false
  }

  @inlinable
  internal mutating func upstreamSubscribed(_ subscription: Subscription) -> SubscriptionAction {
    guard case .awaitingSubscription = phase, let downstream else { return .cancelSubscription }
    phase = .subscribed(subscription)
    return .sendSubscriptionDownstreamAndRequestUnlimited(downstream)
  }

  @inlinable
  internal mutating func valueArrived(_ value: Downstream.Input, at now: Context.SchedulerTimeType) -> ValueAction {
    guard acceptsUpstreamEvents else { return .none }
    // As Apple's: with no outstanding demand the value is not kept and nothing is
    // scheduled. (With an emission scheduled there is demand: only a delivery uses it up.)
    guard demand > .none else { return .none }
    if latest || waiting == nil { waiting = value }
    guard !emissionScheduled else { return .none }
    emissionScheduled = true
    if let lastEmission, lastEmission.distance(to: now) < interval {
      return .scheduleEmission(at: lastEmission.advanced(by: interval))
    }
    return .scheduleEmissionNow
  }

  @inlinable
  internal mutating func upstreamCompleted(_ completion: Subscribers.Completion<Downstream.Failure>)
    -> CompletionAction
  {
    guard acceptsUpstreamEvents else { return .none }
    phase = .completing(completion)
    return emissionScheduled ? .none : .scheduleCompletion
  }

  /// A scheduled emission ran at `now`.
  @inlinable
  internal mutating func emissionDue(at now: Context.SchedulerTimeType) -> EmissionAction {
    emissionScheduled = false
    let completion: Subscribers.Completion<Downstream.Failure>?
    switch phase {
    case .subscribed: completion = nil
    case .completing(let pending): completion = pending
    case .awaitingSubscription, .terminal: return .none
    }
    guard let downstream else { return .none }
    let value = waiting.take()
    if completion != nil { finish() }
    if let value, demand > .none {
      demand -= 1
      lastEmission = now
      return .deliver(downstream, value, then: completion)
    }
    if let completion { return .complete(downstream, completion) }
    return .none
  }

  /// A completion scheduled on its own is due.
  @inlinable
  internal mutating func completionDue() -> EmissionAction {
    guard case .completing(let completion) = phase, let downstream else { return .none }
    finish()
    return .complete(downstream, completion)
  }

  /// After a value delivered with a completion to follow: whether the downstream is still
  /// there to receive it (it may have cancelled inside the value).
  @inlinable
  internal func shouldCompleteAfterValue() -> Bool {
    !isCancelled
  }

  @inlinable
  internal mutating func downstreamRequested(_ more: Subscribers.Demand) {
    guard acceptsUpstreamEvents else { return }
    demand += more
  }

  /// Set once the downstream cancelled.
  @usableFromInline internal var isCancelled = false

  /// The downstream cancelled: returns upstream's subscription to cancel, and what to
  /// release outside the lock. A cancel before upstream's subscription is remembered, as
  /// Apple's is: the subscription is cancelled when it arrives.
  @inlinable
  internal mutating func cancelled() -> (Subscription?, released: (Downstream?, Downstream.Input?)) {
    isCancelled = true
    var subscription: Subscription?
    if case .subscribed(let held) = phase { subscription = held }
    phase = .terminal
    defer { downstream = nil }
    return (subscription, (downstream, waiting.take()))
  }

  @inlinable
  internal mutating func finish() {
    phase = .terminal
    downstream = nil
    waiting = nil
  }
}
