/// The state machine of `combineLatest` over two upstreams: keeps the latest value of
/// each, remembers whether a combination is waiting for demand, serialises delivery, and
/// decides completion. Its transitions return what the storage class must do once the lock
/// is released.
@usableFromInline
internal struct CombineLatestState<A, B, Downstream: Subscriber> where Downstream.Input == (A, B) {
  @usableFromInline
  internal enum Next {
    case idle
    /// Deliver the combination (this thread now owns delivery).
    case deliver(Downstream, (A, B))
    /// Send the completion and cancel the given upstreams.
    case complete(Downstream, Subscribers.Completion<Downstream.Failure>, cancelling: [Subscription])
    /// Cancel upstreams only (the delivering thread sends the completion).
    case cancel([Subscription])
  }

  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var upstreamA = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var upstreamB = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var latestA: A?
  @usableFromInline internal var latestB: B?
  /// A combination newer than the last one delivered exists.
  @usableFromInline internal var hasUndeliveredChange = false
  @usableFromInline internal var finishedA = false
  @usableFromInline internal var finishedB = false
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var isDelivering = false
  @usableFromInline internal var pendingFailure: Downstream.Failure?

  @inlinable
  internal init(downstream: Downstream) {
    self.downstream = downstream
  }

  @inlinable
  internal mutating func subscribed(_ side: FanInSide, _ subscription: Subscription) -> Subscribers.Demand? {
    guard downstream != nil else { return nil }
    let accepted = side == .a ? upstreamA.accept(subscription) : upstreamB.accept(subscription)
    return accepted ? demand : nil
  }

  @inlinable
  internal mutating func receiveA(_ value: A) -> Next {
    guard downstream != nil else { return .idle }
    latestA = value
    hasUndeliveredChange = latestB != nil
    return isDelivering ? .idle : nextDelivery()
  }

  @inlinable
  internal mutating func receiveB(_ value: B) -> Next {
    guard downstream != nil else { return .idle }
    latestB = value
    hasUndeliveredChange = latestA != nil
    return isDelivering ? .idle : nextDelivery()
  }

  @inlinable
  internal mutating func finished(_ side: FanInSide) -> Next {
    guard downstream != nil else { return .idle }
    if side == .a { finishedA = true } else { finishedB = true }
    return isDelivering ? .idle : nextDelivery()
  }

  @inlinable
  internal mutating func failed(_ error: Downstream.Failure) -> Next {
    guard let downstream else { return .idle }
    let cancelling = releaseAll()
    if isDelivering {
      pendingFailure = error
      self.downstream = downstream
      return .cancel(cancelling)
    }
    return .complete(downstream, .failure(error), cancelling: cancelling)
  }

  @inlinable
  internal mutating func request(_ more: Subscribers.Demand) -> ([Subscription], Next) {
    guard downstream != nil else { return ([], .idle) }
    demand += more
    let forward = [upstreamA.subscription, upstreamB.subscription].compactMap { $0 }
    return (forward, isDelivering ? .idle : nextDelivery())
  }

  @inlinable
  internal mutating func didDeliver(additionalDemand more: Subscribers.Demand) -> ([Subscription], Next) {
    isDelivering = false
    if let failure = pendingFailure, let downstream {
      pendingFailure = nil
      self.downstream = nil
      return ([], .complete(downstream, .failure(failure), cancelling: []))
    }
    guard downstream != nil else { return ([], .idle) }
    demand += more
    let forward = more > 0 ? [upstreamA.subscription, upstreamB.subscription].compactMap { $0 } : []
    return (forward, nextDelivery())
  }

  @inlinable
  internal mutating func cancel() -> [Subscription] {
    guard downstream != nil else { return [] }
    return releaseAll()
  }

  @inlinable
  internal mutating func nextDelivery() -> Next {
    guard let downstream else { return .idle }
    if hasUndeliveredChange, demand > 0, let a = latestA, let b = latestB {
      hasUndeliveredChange = false
      demand -= 1
      isDelivering = true
      return .deliver(downstream, (a, b))
    }
    if finishedA && finishedB && !hasUndeliveredChange {
      return .complete(downstream, .finished, cancelling: releaseAll())
    }
    return .idle
  }

  @inlinable
  internal mutating func releaseAll() -> [Subscription] {
    let cancelling = [upstreamA.terminate(), upstreamB.terminate()].compactMap { $0 }
    latestA = nil
    latestB = nil
    downstream = nil
    return cancelling
  }
}
