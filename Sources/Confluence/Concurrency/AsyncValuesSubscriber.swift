/// The subscriber behind ``AsyncPublisher`` and ``AsyncThrowingPublisher``'s iterators.
///
/// Apple's rules, kept here:
/// - It subscribes when the iterator is made. Each `next()` asks upstream for one value
///   (`next()` calls made before the subscription arrives are asked for together when it
///   does); several `next()` calls may wait at once and are answered oldest first.
/// - Cancelling a task waiting in `next()` cancels the subscription (once) and every
///   waiting `next()` returns `nil`; so does `cancel()`. A subscription arriving after that,
///   or a second one, is cancelled.
/// - A finish ends every waiting `next()` with `nil`. A failure is thrown by the oldest
///   waiting `next()` (the others return `nil`), or kept for the next `next()` if nobody
///   waits. Afterwards `next()` returns `nil`; a cancel after the end does not reach upstream.
/// - A value after the end is ignored; one before the subscription ends the waiting
///   `next()` calls with `nil` (their demand is still asked for when the subscription
///   comes); a value nobody asked for traps. All three as Apple's.
@usableFromInline
internal final class AsyncValuesSubscriber<Output, Failure: Error>: Subscriber, Cancellable,
  @unchecked Sendable
{
  // @unchecked Sendable: `state` is only touched under `lock`.
  @usableFromInline internal typealias Input = Output

  @usableFromInline internal let lock = Lock()
  @usableFromInline internal var state = AsyncValuesState<Output, Failure>()

  @inlinable
  internal init() {}

  @inlinable
  internal func receive(subscription: Subscription) {
    let demand = lock.withLock { () -> Int? in
      guard !state.isOver, state.upstream.accept(subscription) else { return nil }
      defer { state.demandBeforeSubscription = 0 }
      return state.demandBeforeSubscription
    }
    guard let demand else {
      subscription.cancel()
      return
    }
    if demand > 0 {
      subscription.request(.max(demand))
    }
  }

  @inlinable
  internal func receive(_ input: Output) -> Subscribers.Demand {
    let delivery = lock.withLock { () -> ValueDelivery in
      if state.isOver { return .ignore }
      guard case .subscribed = state.upstream else {
        // As Apple's: a value before the subscription ends the waiting `next()` calls with
        // `nil`; the demand they asked for is still requested when the subscription comes.
        defer { state.waiters = [] }
        return .endWaiting(state.waiters)
      }
      guard !state.waiters.isEmpty else { return .unrequested }
      return .deliver(state.waiters.removeFirst())
    }
    switch delivery {
    case .ignore:
      break
    case .unrequested:
      confluencePreconditionFailure("AsyncPublisher received a value it did not request (upstream ignored the demand)")
    case .endWaiting(let waiters):
      for waiter in waiters { waiter.resume(returning: .value(nil)) }
    case .deliver(let waiter):
      waiter.resume(returning: .value(input))
    }
    return .none
  }

  /// What `receive(_:)` does with a value, decided under the lock.
  @usableFromInline
  internal enum ValueDelivery {
    case ignore
    case unrequested
    case endWaiting([AsyncValuesState<Output, Failure>.Waiter])
    case deliver(AsyncValuesState<Output, Failure>.Waiter)
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    let waiters = lock.withLock { () -> [AsyncValuesState<Output, Failure>.Waiter]? in
      guard !state.isOver else { return nil }
      state.isOver = true
      _ = state.upstream.terminate()
      defer { state.waiters = [] }
      if case .failure(let error) = completion, state.waiters.isEmpty {
        state.failure = error
      }
      return state.waiters
    }
    guard var waiters else { return }
    if case .failure(let error) = completion, !waiters.isEmpty {
      waiters.removeFirst().resume(returning: .failure(error))
    }
    for waiter in waiters {
      waiter.resume(returning: .value(nil))
    }
  }

  @inlinable
  internal func cancel() {
    let taken = lock.withLock { () -> (Subscription?, [AsyncValuesState<Output, Failure>.Waiter])? in
      guard !state.isOver else { return nil }
      state.isOver = true
      defer { state.waiters = [] }
      return (state.upstream.terminate(), state.waiters)
    }
    guard let (subscription, waiters) = taken else { return }
    subscription?.cancel()
    for waiter in waiters {
      waiter.resume(returning: .value(nil))
    }
  }

  /// The next value, `nil` at the end, or the failure.
  @inlinable
  internal func next() async -> AsyncValuesResult<Output> {
    await withTaskCancellationHandler {
      await withUnsafeContinuation { (waiter: AsyncValuesState<Output, Failure>.Waiter) in
        switch lock.withLock({ state.next(waiter) }) {
        case .answer(let result):
          waiter.resume(returning: result)
        case .wait(let subscription):
          subscription?.request(.max(1))
        }
      }
    } onCancel: {
      cancel()
    }
  }
}

/// Cancels the subscriber when the last copy of an iterator goes away (a `for await` loop
/// left early), so upstream does not run on for nobody.
@usableFromInline
internal final class AsyncValuesLifetime<Output, Failure: Error>: Sendable {
  @usableFromInline
  internal let subscriber: AsyncValuesSubscriber<Output, Failure>

  @inlinable
  internal init(_ subscriber: AsyncValuesSubscriber<Output, Failure>) {
    self.subscriber = subscriber
  }

  @inlinable
  deinit {
    subscriber.cancel()
  }
}
