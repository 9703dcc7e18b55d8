import CConfluenceSystem

/// The state of one `buffer` subscription, guarded by its lock. Pure bookkeeping: the
/// subscription performs what the methods return, with the lock released.
///
/// Apple's rules, as the conformance suite records them:
/// - every value goes into the buffer first (a `size` of 0 is always full), then the buffer
///   drains as far as the downstream's demand allows;
/// - a full buffer drops the newest value, drops the oldest, or (`customError`) cancels
///   upstream and records the error — delivered after the values the downstream asks for
///   next, ahead of the rest of the buffer;
/// - upstream's failure is delivered at once (dropping the buffer); its `finished` waits
///   until the buffer is empty and the downstream has demand. A failure that arrives while
///   another thread drains (a request's drain delivering a value) is delivered by that drain,
///   right after the value it is delivering: never beside it, never before values that
///   follow it. The first completion wins; after a failure no
///   value is accepted, after `finished` values still are;
/// - with `.keepFull`, each value drained out of the buffer is asked for again upstream;
/// - events before the subscription are ignored, a cancel before it is forgotten.
@usableFromInline
internal struct BufferState<Downstream: Subscriber> {
  @usableFromInline internal var upstream = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var values = FIFOQueue<Downstream.Input>()
  @usableFromInline internal var demand = Subscribers.Demand.none
  /// The completion recorded: upstream's, or the overflow error.
  @usableFromInline internal var terminal: Subscribers.Completion<Downstream.Failure>?
  @usableFromInline internal var hasDeliveredTerminal = false
  @usableFromInline internal var isCancelled = false
  /// The `confluence_thread_token()` of the thread whose drain is running, or 0: tells a
  /// failure sent from inside that drain from one sent on another thread meanwhile.
  @usableFromInline internal var drainingThread: UInt = 0
  /// A drain is running (possibly re-entered from the downstream): others only add to it.
  @inlinable internal var isDraining: Bool { drainingThread != 0 }
  /// The `customError` closure is running: a value sent meanwhile is a re-entrant send.
  @usableFromInline internal var isMakingError = false
  /// The downstream has been handed the subscription: nothing is delivered before.
  @usableFromInline internal var isDownstreamSubscribed = false
  /// The recorded failure is the overflow error (not upstream's).
  @usableFromInline internal var failedOnOverflow = false
  @usableFromInline internal let size: Int
  @usableFromInline internal let keepsFull: Bool

  @inlinable
  internal init(size: Int, keepsFull: Bool) {
    self.size = size
    self.keepsFull = keepsFull
  }

  /// What to do with a value after recording it.
  @usableFromInline
  internal enum Arrival {
    case ignore
    case drain
    case overflow(makeError: () -> Downstream.Failure)
  }

  @inlinable
  internal mutating func receive(
    _ value: Downstream.Input, whenFull: Publishers.BufferingStrategy<Downstream.Failure>
  ) -> Arrival {
    confluencePrecondition(!isMakingError, "buffer: a value arrived while the whenFull error closure was running")
    guard case .subscribed = upstream, !isCancelled else { return .ignore }
    if case .failure = terminal { return .ignore }
    if values.count < size {
      values.append(value)
      return .drain
    }
    switch whenFull {
    case .dropNewest:
      return .ignore
    case .dropOldest:
      guard size > 0 else { return .ignore }
      _ = values.removeFirst()
      values.append(value)
      return .drain
    case .customError(let makeError):
      isMakingError = true
      return .overflow(makeError: makeError)
    }
  }

  /// Records the overflow error; returns the subscription to cancel.
  @inlinable
  internal mutating func overflowed(with error: Downstream.Failure) -> Subscription? {
    isMakingError = false
    guard terminal == nil else { return nil }
    terminal = .failure(error)
    failedOnOverflow = true
    // Kept (cancelled) until the failure is delivered: a request meanwhile still reaches it.
    return upstream.subscription
  }

  /// What upstream's completion calls for.
  @usableFromInline
  internal enum Ending {
    case ignore
    case drain
    case deliverFailure(SubscriptionStatus)
  }

  @inlinable
  internal mutating func upstreamCompleted(_ completion: Subscribers.Completion<Downstream.Failure>) -> Ending {
    guard case .subscribed = upstream, !isCancelled, terminal == nil else { return .ignore }
    terminal = completion
    guard case .failure = completion else { return .drain }
    // A failure goes at once, ahead of the buffer, which is dropped — except that a drain
    // already delivering on this thread (the failure came from inside the downstream)
    // carries on with what it has, as Apple's does. A drain delivering on another thread
    // delivers the failure itself, after the value it is delivering (the buffer dropped):
    // delivering it here would overlap that value and precede the drain's next ones.
    // Before the downstream holds its subscription, the failure waits for that (the drain
    // after the handover delivers it).
    // A thread's token is never 0, so this also says that a drain is running.
    let drainsOnThisThread = drainingThread == confluence_thread_token()
    if !drainsOnThisThread { values = FIFOQueue() }
    guard isDownstreamSubscribed, !isDraining || drainsOnThisThread else { return .ignore }
    hasDeliveredTerminal = true
    return .deliverFailure(upstream.take())
  }

  /// The next step of a drain.
  @usableFromInline
  internal enum Step {
    case deliver(Downstream.Input)
    case complete(Subscribers.Completion<Downstream.Failure>, SubscriptionStatus)
    case done
  }

  @inlinable
  internal mutating func nextStep() -> Step {
    if isCancelled || !isDownstreamSubscribed { return .done }
    if demand > .none, !values.isEmpty {
      demand -= 1
      return .deliver(values.removeFirst())
    }
    guard let terminal, !hasDeliveredTerminal else { return .done }
    switch terminal {
    case .failure:
      // The overflow error, or upstream's failure that came before the downstream held its
      // subscription: the rest of the buffer is dropped. After an overflow the cancelled
      // subscription is kept, so that the values just drained are still asked for again
      // with `.keepFull`, as Apple's does.
      hasDeliveredTerminal = true
      values = FIFOQueue()
      return .complete(terminal, failedOnOverflow ? .awaitingSubscription : upstream.take())
    case .finished:
      guard values.isEmpty, demand > .none else { return .done }
      hasDeliveredTerminal = true
      return .complete(terminal, upstream.take())
    }
  }

  /// After a drain: once the overflow error was delivered, the cancelled upstream
  /// subscription it kept (for the drain's last requests) is let go, so that an upstream
  /// that keeps its subscriber (as Apple's `Concatenate` does) is not kept in a cycle.
  @inlinable
  internal mutating func takeUpstreamIfOverflowFailureDelivered() -> SubscriptionStatus {
    guard failedOnOverflow, hasDeliveredTerminal else { return .awaitingSubscription }
    return upstream.take()
  }

  /// The subscription to ask for `count` more values after a drain, with `.keepFull`.
  @inlinable
  internal func replenishing(_ count: Int) -> Subscription? {
    guard keepsFull, count > 0, !isCancelled else { return nil }
    return upstream.subscription
  }
}
