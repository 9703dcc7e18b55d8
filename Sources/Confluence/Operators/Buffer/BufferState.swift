/// The state machine of `buffer`: what waits, what downstream may take, what to ask of
/// upstream, and when to complete. Transitions return what the storage class must do once
/// the lock is released.
@usableFromInline
internal struct BufferState<Downstream: Subscriber> {
  @usableFromInline
  internal enum Next {
    case idle
    /// Deliver `value` (this thread owns delivery now); then ask upstream for `replenish`.
    case deliver(Downstream, Downstream.Input, replenish: Subscription?)
    case complete(Downstream, Subscribers.Completion<Downstream.Failure>, cancelling: Subscription?)
    /// Cancel upstream only; the delivering thread sends the completion.
    case cancel(Subscription?)
    /// The buffer is full and the strategy is a custom error: the caller makes the error
    /// (user code, so outside the lock) and calls `fail(_:)`.
    case overflow(makeError: () -> Downstream.Failure)
  }

  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var upstream = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var buffer = FIFOQueue<Downstream.Input>()
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var isDelivering = false
  /// Upstream's completion, held until the buffer has drained.
  @usableFromInline internal var completion: Subscribers.Completion<Downstream.Failure>?
  @usableFromInline internal let size: Int
  @usableFromInline internal let keepsFull: Bool

  @inlinable
  internal init(downstream: Downstream, size: Int, keepsFull: Bool) {
    self.downstream = downstream
    self.size = size
    self.keepsFull = keepsFull
  }

  @inlinable
  internal var replenishable: Subscription? { keepsFull ? upstream.subscription : nil }

  /// An upstream value arrived. `whenFull` resolves overflow; returns the failure to send
  /// if the strategy is a custom error.
  @inlinable
  internal mutating func receive(
    _ value: Downstream.Input, whenFull: Publishers.BufferingStrategy<Downstream.Failure>
  ) -> Next {
    guard downstream != nil, completion == nil else { return .idle }
    if buffer.count >= size {
      switch whenFull {
      case .dropNewest:
        return .idle
      case .dropOldest:
        if buffer.isEmpty { return .idle }
        _ = buffer.removeFirst()
      case .customError(let makeError):
        return .overflow(makeError: makeError)
      }
    }
    buffer.append(value)
    return isDelivering ? .idle : nextDelivery()
  }

  @inlinable
  internal mutating func upstreamCompleted(_ completion: Subscribers.Completion<Downstream.Failure>) -> Next {
    guard downstream != nil, self.completion == nil else { return .idle }
    self.completion = completion
    _ = upstream.terminate()
    return isDelivering ? .idle : nextDelivery()
  }

  /// Fails at once (custom overflow error), dropping the buffer.
  @inlinable
  internal mutating func fail(_ error: Downstream.Failure) -> Next {
    guard let downstream else { return .idle }
    let cancelling = upstream.terminate()
    buffer = FIFOQueue()
    if isDelivering {
      completion = .failure(error)
      return .cancel(cancelling)
    }
    self.downstream = nil
    return .complete(downstream, .failure(error), cancelling: cancelling)
  }

  @inlinable
  internal mutating func request(_ more: Subscribers.Demand) -> (forward: Subscription?, Next) {
    guard downstream != nil else { return (nil, .idle) }
    demand += more
    let forward = keepsFull ? nil : upstream.subscription
    return (forward, isDelivering ? .idle : nextDelivery())
  }

  @inlinable
  internal mutating func didDeliver(additionalDemand more: Subscribers.Demand) -> (forward: Subscription?, Next) {
    isDelivering = false
    guard downstream != nil else { return (nil, .idle) }
    demand += more
    let forward = (!keepsFull && more > 0) ? upstream.subscription : nil
    return (forward, nextDelivery())
  }

  @inlinable
  internal mutating func cancel() -> Subscription? {
    guard downstream != nil else { return nil }
    downstream = nil
    buffer = FIFOQueue()
    return upstream.terminate()
  }

  @inlinable
  internal mutating func nextDelivery() -> Next {
    guard let downstream else { return .idle }
    if demand > 0, !buffer.isEmpty {
      demand -= 1
      isDelivering = true
      return .deliver(downstream, buffer.removeFirst(), replenish: completion == nil ? replenishable : nil)
    }
    if let completion, buffer.isEmpty {
      self.downstream = nil
      return .complete(downstream, completion, cancelling: nil)
    }
    return .idle
  }
}
