#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The state of one `timeout(_:scheduler:options:customError:)` subscription, as a pure
/// value: each transition returns what its ``TimeoutSubscription`` must do once it
/// released its lock.
///
/// Apple's rules, kept here:
/// - Upstream's subscription is accepted once (another is cancelled); it arms the timer
///   (generation 0), and so does the downstream's first request. A cancel before it is not
///   remembered.
/// - Each value gets a new generation and re-arms the timer (a repeating schedule, which
///   replaces the previous one); a timer fires only for the latest generation. Values and
///   the completion are delivered on the scheduler.
/// - When the timer fires, upstream is cancelled and the downstream completes (with the
///   custom error, if any), and is let go; so does a delivered completion.
/// - The timer firing on the thread that is still inside `schedule` arming it (an
///   immediate scheduler) traps, as Apple's does.
/// - A cancel cancels upstream and the timer but keeps the downstream.
@usableFromInline
internal struct TimeoutStateMachine<Downstream: Subscriber> {
  /// What a fired timer does.
  @usableFromInline
  internal struct Expiry {
    @usableFromInline internal let downstream: Downstream
    @usableFromInline internal let subscription: Subscription
    @usableFromInline internal let makeError: (() -> Downstream.Failure)?

    @inlinable
    internal init(
      downstream: Downstream, subscription: Subscription, makeError: (() -> Downstream.Failure)?
    ) {
      self.downstream = downstream
      self.subscription = subscription
      self.makeError = makeError
    }
  }

  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var customError: (() -> Downstream.Failure)?
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var generation = 0
  @usableFromInline internal var upstreamFinished = false
  /// The armed timer (a repeating schedule, as Apple's), cancelled when re-armed or done.
  @usableFromInline internal var timer: Cancellable?
  /// Whether downstream has requested yet: its first request arms the timer again.
  @usableFromInline internal var hasRequested = false
  /// The thread inside `scheduler.schedule` arming the timer, if any.
  @usableFromInline internal var armingThread: pthread_t?

  @inlinable
  internal init(downstream: Downstream, customError: (() -> Downstream.Failure)?) {
    self.downstream = downstream
    self.customError = customError
  }

  /// Upstream's subscription arrived on `thread`: the downstream to hand this subscription
  /// to (after arming the timer), or `nil` to cancel it.
  @inlinable
  internal mutating func upstreamSubscribed(_ subscription: Subscription, on thread: pthread_t) -> Downstream? {
    guard status.accept(subscription) else { return nil }
    armingThread = thread
    return downstream
  }

  /// A timer was armed: the timer to cancel (the one it replaces, or the new one if
  /// everything ended meanwhile).
  @inlinable
  internal mutating func timerArmed(_ armed: Cancellable) -> Cancellable? {
    armingThread = nil
    if case .terminal = status { return armed }
    defer { timer = armed }
    return timer
  }

  /// The timer armed for `ticket` fired on `thread`.
  @inlinable
  internal mutating func timerFired(ticket: Int, on thread: pthread_t) -> Expiry? {
    if let arming = armingThread {
      precondition(
        pthread_equal(arming, thread) == 0,
        "timeout: the scheduler ran the timeout action from inside scheduling it (an immediate scheduler cannot time out)"
      )
    }
    guard ticket == generation, !upstreamFinished, let downstream, let subscription = status.terminate() else {
      return nil
    }
    defer {
      self.downstream = nil
      customError = nil
    }
    return Expiry(downstream: downstream, subscription: subscription, makeError: customError)
  }

  @inlinable
  internal mutating func takeTimer() -> Cancellable? {
    timer.take()
  }

  /// A value arrived on `thread`: its ticket (re-arm the timer, schedule the delivery), or
  /// `nil` if it does not count.
  @inlinable
  internal mutating func valueArrived(on thread: pthread_t) -> Int? {
    guard status.subscription != nil, !upstreamFinished else { return nil }
    generation += 1
    armingThread = thread
    return generation
  }

  /// A scheduled value is due: the downstream to deliver it to, if the subscription lives.
  @inlinable
  internal func valueDue() -> Downstream? {
    status.subscription == nil ? nil : downstream
  }

  /// Upstream's subscription, to pass on the demand a delivered value returned.
  @inlinable
  internal var upstreamSubscription: Subscription? { status.subscription }

  /// Upstream completed: whether to schedule the completion's delivery.
  @inlinable
  internal mutating func upstreamCompleted() -> Bool {
    guard status.subscription != nil, !upstreamFinished else { return false }
    upstreamFinished = true
    return true
  }

  /// The scheduled completion is due: the downstream (if any) and the timer to cancel, or
  /// `nil` if everything ended already.
  @inlinable
  internal mutating func completionDue() -> (Downstream?, Cancellable?)? {
    guard status.terminate() != nil else { return nil }
    defer {
      downstream = nil
      customError = nil
    }
    return (downstream, timer.take())
  }

  /// The downstream requested on `thread`: upstream's subscription to pass the demand to,
  /// and the generation to re-arm the timer for on the first request.
  @inlinable
  internal mutating func downstreamRequested(on thread: pthread_t) -> (Subscription?, rearm: Int?) {
    guard let subscription = status.subscription else { return (nil, nil) }
    defer { hasRequested = true }
    if hasRequested { return (subscription, nil) }
    armingThread = thread
    return (subscription, generation)
  }

  /// The downstream cancelled: upstream's subscription and the timer to cancel.
  @inlinable
  internal mutating func cancelled() -> (Subscription?, Cancellable?) {
    if case .awaitingSubscription = status { return (nil, nil) }
    return (status.terminate(), timer.take())
  }
}
