/// The state machine of `switchToLatest`: which inner publisher is current, how much
/// downstream demand it has not used yet, and when everything is done.
@usableFromInline
internal struct SwitchToLatestState<Downstream: Subscriber> {
  @usableFromInline
  internal enum Next {
    case idle
    /// Deliver `value` (this thread owns delivery now).
    case deliver(Downstream.Input)
    case complete(Subscribers.Completion<Downstream.Failure>, cancelling: [Subscription])
    case cancel([Subscription])
  }

  @usableFromInline internal var isTerminated = false
  @usableFromInline internal var upstream = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var upstreamFinished = false
  /// Whether downstream was handed the subscription before upstream was subscribed.
  @usableFromInline internal var downstreamHasSubscription = false
  /// The id of the current inner publisher; older ids are stale.
  @usableFromInline internal var currentID = 0
  @usableFromInline internal var current: Subscription?
  @usableFromInline internal var hasLiveInner = false
  /// Downstream demand not yet used up by inner values.
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var isDelivering = false
  /// Values that arrived while another thread was delivering, each accepted (its demand
  /// used) while its inner was the current one. A switch keeps them: a value accepted from
  /// the latest inner is delivered even if a newer inner arrives before its turn, ahead of
  /// every value of the newer one (the queue keeps arrival order).
  @usableFromInline internal var queued = FIFOQueue<Downstream.Input>()
  @usableFromInline internal var pendingCompletion: Subscribers.Completion<Downstream.Failure>?

  @inlinable
  internal init() {}

  /// A new inner publisher arrived: returns its id and the previous inner to cancel.
  @inlinable
  internal mutating func switchInner() -> (id: Int, previous: Subscription?)? {
    guard !isTerminated else { return nil }
    currentID &+= 1
    let previous = current
    current = nil
    hasLiveInner = true
    return (currentID, previous)
  }

  /// The inner's subscription arrived: returns the demand to request, or `nil` to cancel.
  @inlinable
  internal mutating func innerSubscribed(_ id: Int, _ subscription: Subscription) -> Subscribers.Demand? {
    guard !isTerminated, id == currentID else { return nil }
    // As Apple's: a second subscription for the live inner is cancelled; one arriving
    // after the inner finished is ignored (neither kept nor cancelled).
    guard current == nil else { return nil }
    guard hasLiveInner else { return Subscribers.Demand.none }
    current = subscription
    return demand
  }

  @inlinable
  internal mutating func innerValue(_ value: Downstream.Input, id: Int) -> Next {
    guard !isTerminated, id == currentID else { return .idle }
    // As Apple's: an inner publisher sending more than it was asked for traps.
    precondition(demand > 0, "SwitchToLatest: an inner publisher sent a value it was not asked for")
    demand -= 1
    if isDelivering {
      queued.append(value)
      return .idle
    }
    isDelivering = true
    return .deliver(value)
  }

  /// A `Just` inner (see `SwitchToLatestSubscription.upstreamValue(_:)`) may hand its value
  /// over at once: what subscribing to it would do if its subscriber's request met demand
  /// and no other thread was delivering. Returns `false` (changing nothing) otherwise.
  @inlinable
  internal mutating func innerValueAtOnce(id: Int) -> Bool {
    guard !isTerminated, id == currentID, current == nil, hasLiveInner, !isDelivering, demand > 0 else {
      return false
    }
    demand -= 1
    isDelivering = true
    return true
  }

  /// The `Just` inner of ``innerValueAtOnce(id:)`` finished.
  @inlinable
  internal mutating func innerFinishedAtOnce(id: Int) -> Next {
    guard !isTerminated, id == currentID else { return .idle }
    hasLiveInner = false
    return completeIfDone()
  }

  @inlinable
  internal mutating func innerFinished(id: Int) -> Next {
    guard !isTerminated, id == currentID else { return .idle }
    precondition(current != nil, "SwitchToLatest: an inner publisher completed before sending its subscription")
    current = nil
    hasLiveInner = false
    return completeIfDone()
  }

  @inlinable
  internal mutating func upstreamDidFinish() -> Next {
    guard !isTerminated else { return .idle }
    upstreamFinished = true
    _ = upstream.terminate()
    return completeIfDone()
  }

  @inlinable
  internal mutating func fail(_ error: Downstream.Failure, innerID: Int?) -> Next {
    guard !isTerminated else { return .idle }
    // The publisher that failed is released, not cancelled.
    if let innerID {
      guard innerID == currentID else { return .idle }
      precondition(current != nil, "SwitchToLatest: an inner publisher completed before sending its subscription")
      current = nil
    } else {
      _ = upstream.take()
    }
    let cancelling = releaseAll()
    if isDelivering {
      pendingCompletion = .failure(error)
      return .cancel(cancelling)
    }
    return .complete(.failure(error), cancelling: cancelling)
  }

  /// Downstream asked for more: returns the current inner to forward it to.
  @inlinable
  internal mutating func request(_ more: Subscribers.Demand) -> Subscription? {
    guard !isTerminated else { return nil }
    demand += more
    return current
  }

  /// The delivering thread is done with a value; `more` is what downstream returned.
  @inlinable
  internal mutating func didDeliver(additionalDemand more: Subscribers.Demand) -> (Subscription?, Next) {
    isDelivering = false
    if let completion = pendingCompletion {
      pendingCompletion = nil
      isTerminated = true
      return (nil, .complete(completion, cancelling: []))
    }
    guard !isTerminated else { return (nil, .idle) }
    demand += more
    let forward = more > 0 ? current : nil
    if !queued.isEmpty {
      isDelivering = true
      return (forward, .deliver(queued.removeFirst()))
    }
    return (forward, completeIfDone())
  }

  @inlinable
  internal mutating func cancel() -> [Subscription] {
    guard !isTerminated else { return [] }
    return releaseAll()
  }

  @inlinable
  internal mutating func completeIfDone() -> Next {
    guard upstreamFinished, !hasLiveInner, queued.isEmpty else { return .idle }
    if isDelivering {
      pendingCompletion = .finished
      return .idle
    }
    guard !isTerminated else { return .idle }
    return .complete(.finished, cancelling: releaseAll())
  }

  @inlinable
  internal mutating func releaseAll() -> [Subscription] {
    // As Apple's: the current inner is cancelled before upstream.
    let cancelling = [current, upstream.terminate()].compactMap { $0 }
    current = nil
    hasLiveInner = false
    queued = FIFOQueue()
    isTerminated = true
    return cancelling
  }
}
