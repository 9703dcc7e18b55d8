#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The state of one `timeout` subscription, guarded by its lock. Pure bookkeeping: each
/// transition returns what ``TimeoutSubscription`` must do once the lock is released.
///
/// Apple's rules, as its documentation and the recorded behaviour give them:
/// - the timer is a repeating schedule armed when the subscription arrives, again for each
///   value (each arming gets a new ticket; a timer whose ticket is stale does nothing), and
///   again at downstream's first request;
/// - values and the completion are delivered through the scheduler; the timer firing first
///   cancels upstream and finishes (or fails with the custom error);
/// - a timer that fires from inside the `schedule` call that armed it (an immediate
///   scheduler) traps;
/// - demand, `.none` included, goes upstream unchecked;
/// - a cancel keeps the downstream (an action still queued on the scheduler keeps both alive
///   until it has run); a cancel before upstream subscribed is not remembered.
@usableFromInline
internal struct TimeoutStateMachine<Downstream: Subscriber> {
  @usableFromInline internal typealias Failure = Downstream.Failure

  /// What to do with upstream's subscription.
  @usableFromInline
  internal enum SubscriptionAction {
    case cancelSubscription
    /// Arm the first timer (ticket 0), then hand downstream the subscription.
    case armTimerAndSubscribe(Downstream)
  }

  /// What to do when a timer fires.
  @usableFromInline
  internal enum TimerAction {
    case ignore
    /// Cancel the timer and upstream, then end downstream with the completion.
    case timeOut(Downstream, upstream: Subscription, timer: Cancellable?, makeError: (() -> Failure)?)
  }

  /// What to do with a completion the scheduler runs.
  @usableFromInline
  internal enum CompletionAction {
    case ignore
    /// Cancel the timer, then pass the completion on (to a downstream still held).
    case complete(Downstream?, timer: Cancellable?)
  }

  /// What to do with downstream's request.
  @usableFromInline
  internal struct RequestAction {
    /// The subscription to pass the demand to.
    @usableFromInline internal var upstream: Subscription?
    /// The ticket of the timer to arm first (downstream's first request).
    @usableFromInline internal var rearm: Int?

    @inlinable
    internal init(upstream: Subscription?, rearm: Int?) {
      self.upstream = upstream
      self.rearm = rearm
    }
  }

  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var customError: (() -> Failure)?
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  /// The ticket of the newest arming: a timer with another ticket is stale.
  @usableFromInline internal var generation = 0
  @usableFromInline internal var upstreamFinished = false
  /// The armed timer (a repeating schedule, as Apple's), cancelled when re-armed or done.
  @usableFromInline internal var timer: Cancellable?
  /// Whether downstream has requested yet: its first request arms the timer again.
  @usableFromInline internal var hasRequested = false
  /// The thread inside `scheduler.schedule` arming the timer, if any.
  @usableFromInline internal var armingThread: pthread_t?

  @inlinable
  internal init(downstream: Downstream, customError: (() -> Failure)?) {
    self.downstream = downstream
    self.customError = customError
  }

  @inlinable
  internal mutating func upstreamSubscribed(_ subscription: Subscription, on thread: pthread_t) -> SubscriptionAction {
    guard status.accept(subscription), let downstream else { return .cancelSubscription }
    armingThread = thread
    return .armTimerAndSubscribe(downstream)
  }

  /// A timer was scheduled; returns the one to cancel: the one it replaces, or the new one
  /// itself when the subscription has already ended.
  @inlinable
  internal mutating func timerArmed(_ armed: Cancellable) -> Cancellable? {
    armingThread = nil
    if case .terminal = status {
      return armed
    }
    defer { timer = armed }
    return timer
  }

  @inlinable
  internal mutating func timerFired(ticket: Int, on thread: pthread_t) -> TimerAction {
    if let arming = armingThread {
      confluencePrecondition(
        pthread_equal(arming, thread) == 0,
        "timeout: the scheduler ran the timeout action from inside scheduling it (an immediate scheduler cannot time out)"
      )
    }
    guard ticket == generation, !upstreamFinished, let downstream, let upstream = status.terminate() else {
      return .ignore
    }
    defer {
      self.downstream = nil
      customError = nil
    }
    return .timeOut(downstream, upstream: upstream, timer: timer.take(), makeError: customError)
  }

  /// A value arrived: the ticket of the timer to arm, if it is accepted.
  @inlinable
  internal mutating func valueArrived(on thread: pthread_t) -> Int? {
    guard status.subscription != nil, !upstreamFinished else { return nil }
    generation += 1
    armingThread = thread
    return generation
  }

  /// The scheduler runs a value's delivery: the downstream to give it to, if still live.
  @inlinable
  internal func deliveryTarget() -> Downstream? {
    status.subscription == nil ? nil : downstream
  }

  /// Upstream's subscription, while live.
  @inlinable
  internal var upstream: Subscription? { status.subscription }

  /// Upstream completed: whether to schedule the completion's delivery.
  @inlinable
  internal mutating func upstreamCompleted() -> Bool {
    guard status.subscription != nil, !upstreamFinished else { return false }
    upstreamFinished = true
    return true
  }

  @inlinable
  internal mutating func completionDue() -> CompletionAction {
    guard status.terminate() != nil else { return .ignore }
    defer {
      downstream = nil
      customError = nil
    }
    return .complete(downstream, timer: timer.take())
  }

  @inlinable
  internal mutating func downstreamRequested(on thread: pthread_t) -> RequestAction {
    guard let upstream = status.subscription else { return RequestAction(upstream: nil, rearm: nil) }
    defer { hasRequested = true }
    if hasRequested { return RequestAction(upstream: upstream, rearm: nil) }
    armingThread = thread
    return RequestAction(upstream: upstream, rearm: generation)
  }

  /// Downstream cancelled: the upstream subscription and the timer to cancel.
  @inlinable
  internal mutating func cancelled() -> (upstream: Subscription?, timer: Cancellable?) {
    // A cancel before upstream subscribed is not remembered.
    if case .awaitingSubscription = status { return (nil, nil) }
    return (status.terminate(), timer.take())
  }
}
