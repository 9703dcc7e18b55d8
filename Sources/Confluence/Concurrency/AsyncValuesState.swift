/// The state behind ``AsyncPublisher`` and ``AsyncThrowingPublisher``: the upstream
/// subscription, the demand asked for before it arrived, the `next()` calls waiting for a
/// value, and how the stream ended. Pure state; ``AsyncValuesSubscriber`` changes it under
/// its lock and resumes the continuations outside it.
@usableFromInline
internal struct AsyncValuesState<Output, Failure: Error> {
  /// A waiting `next()`.
  @usableFromInline
  internal typealias Waiter = UnsafeContinuation<AsyncValuesResult<Output>, Never>

  @usableFromInline internal var upstream = SubscriptionStatus.awaitingSubscription
  /// `next()` calls made before the subscription arrived: asked for all at once then.
  @usableFromInline internal var demandBeforeSubscription = 0
  /// `next()` calls waiting, oldest first.
  @usableFromInline internal var waiters: [Waiter] = []
  /// A failure that arrived while nobody waited: the next `next()` throws it.
  @usableFromInline internal var failure: Failure?
  /// Completed or cancelled: `next()` returns `nil` (after a kept failure is thrown).
  @usableFromInline internal var isOver = false

  @inlinable
  internal init() {}

  /// What `next()` does now.
  @usableFromInline
  internal enum NextStep {
    /// Return this at once.
    case answer(AsyncValuesResult<Output>)
    /// Wait (the waiter was queued); ask upstream for one more if it is set.
    case wait(request: Subscription?)
  }

  @inlinable
  internal mutating func next(_ waiter: Waiter) -> NextStep {
    if let failure = failure.take() { return .answer(.failure(failure)) }
    if isOver { return .answer(.value(nil)) }
    waiters.append(waiter)
    if case .subscribed(let subscription) = upstream { return .wait(request: subscription) }
    demandBeforeSubscription += 1
    return .wait(request: nil)
  }
}

/// What a waiting `next()` resumes with: a value (or `nil`, the end) or a failure.
@usableFromInline
internal enum AsyncValuesResult<Output>: @unchecked Sendable {
  // @unchecked Sendable: the value is handed from the thread that delivered it to the task
  // that awaited it, once; Apple's AsyncPublisher does not require a Sendable Output either.
  case value(Output?)
  case failure(any Error)
}
