/// The state of one `debounce(for:scheduler:options:)` subscription, as a pure value: each
/// transition returns what its ``DebounceSubscription`` must do once it released its lock.
///
/// Apple's rules, kept here:
/// - Upstream's subscription is accepted once (another is cancelled); a cancel before it is
///   not remembered.
/// - Each value replaces the one waiting and gets a generation number; the quiet-period
///   timer armed for it delivers only if its generation is still the latest, so a
///   superseded timer does nothing. Arming a timer replaces (cancels) the previous one.
/// - A value whose quiet period ends while the downstream has no outstanding demand is
///   dropped. Requests are counted, never forwarded.
/// - Upstream's completion drops the waiting value; the completion is delivered on the
///   scheduler, and then the downstream is let go.
/// - A cancel drops the waiting value and the timer, and cancels upstream, but keeps the
///   downstream (as Apple's does).
@usableFromInline
internal struct DebounceStateMachine<Downstream: Subscriber> {
  /// What to do with upstream's subscription.
  @usableFromInline
  internal enum SubscriptionAction {
    case cancelSubscription
    case sendSubscriptionDownstreamAndRequestUnlimited(Downstream)
  }

  /// What a quiet-period timer does when it fires.
  @usableFromInline
  internal enum QuietPeriodAction {
    case none
    /// Stop the repeating timer; nothing to deliver.
    case stopTimer(Cancellable?)
    /// Stop the repeating timer, then deliver the value.
    case stopTimerAndDeliver(Cancellable?, Downstream, Downstream.Input)
  }

  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var waiting: Downstream.Input?
  @usableFromInline internal var generation = 0
  @usableFromInline internal var upstreamFinished = false
  /// The armed timer (a repeating schedule, as Apple's), cancelled when re-armed or done.
  @usableFromInline internal var timer: Cancellable?

  @inlinable
  internal init(downstream: Downstream) {
    self.downstream = downstream
  }

  @inlinable
  internal mutating func upstreamSubscribed(_ subscription: Subscription) -> SubscriptionAction {
    guard status.accept(subscription), let downstream else { return .cancelSubscription }
    return .sendSubscriptionDownstreamAndRequestUnlimited(downstream)
  }

  /// A value arrived: returns its ticket, or `nil` if it does not count (then the
  /// scheduler is not asked for the time).
  @inlinable
  internal mutating func valueArrived(_ value: Downstream.Input) -> Int? {
    guard status.isSubscribed, !upstreamFinished else { return nil }
    generation += 1
    waiting = value
    return generation
  }

  /// The timer for the latest value was armed: returns the timer to cancel (the one it
  /// replaces, or the new one if everything ended meanwhile).
  @inlinable
  internal mutating func timerArmed(_ armed: Cancellable) -> Cancellable? {
    if case .terminal = status { return armed }
    defer { timer = armed }
    return timer
  }

  @inlinable
  internal mutating func quietPeriodEnded(ticket: Int) -> QuietPeriodAction {
    guard ticket == generation else { return .none }
    let stopped = timer.take()
    guard status.isSubscribed, !upstreamFinished, let value = waiting, let downstream else {
      return .stopTimer(stopped)
    }
    waiting = nil
    guard demand > .none else { return .stopTimer(stopped) }
    demand -= 1
    return .stopTimerAndDeliver(stopped, downstream, value)
  }

  @inlinable
  internal mutating func downstreamRequested(_ more: Subscribers.Demand) {
    demand += more
  }

  /// Upstream completed: whether to schedule the completion's delivery.
  @inlinable
  internal mutating func upstreamCompleted() -> Bool {
    guard status.isSubscribed, !upstreamFinished else { return false }
    upstreamFinished = true
    waiting = nil
    return true
  }

  /// The scheduled completion is due: returns the downstream to complete and hands out the
  /// timer to cancel through `cancelling`; both stay `nil` if everything ended already.
  ///
  /// Two results, not a `(Downstream?, Cancellable?)?`: code the compiler did not specialise
  /// asked for that tuple's parts in their abstract state, then sized them from it.
  @inlinable
  internal mutating func completionDue(cancelling: inout Cancellable?) -> Downstream? {
    guard status.terminate() != nil else { return nil }
    cancelling = timer.take()
    return downstream.take()
  }

  /// The downstream cancelled: upstream's subscription and the timer to cancel, and the
  /// value to release outside the lock. The downstream is kept, as Apple's.
  @inlinable
  internal mutating func cancelled() -> (Subscription?, Cancellable?, released: Downstream.Input?) {
    if case .awaitingSubscription = status { return (nil, nil, nil) }
    defer { waiting = nil }
    return (status.terminate(), timer.take(), waiting)
  }
}
