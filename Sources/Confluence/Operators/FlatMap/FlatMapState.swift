/// The state machine of `flatMap`: who may deliver downstream, what waits for demand, and
/// when the whole thing completes. Pure bookkeeping: its transitions return what the
/// storage class (``FlatMapSubscription``) must do once it has released the lock.
@usableFromInline
internal struct FlatMapState<Input, NewPublisher, Downstream: Subscriber> {
  @usableFromInline
  internal typealias Value = Downstream.Input

  @usableFromInline
  internal struct Inner {
    @usableFromInline internal var subscription: Subscription?
    @usableFromInline internal var isUnlimited = false

    @inlinable
    internal init() {}
  }

  /// What the caller must do after leaving the lock.
  @usableFromInline
  internal enum Next {
    /// Nothing.
    case idle
    /// Deliver `value` downstream (the caller now owns delivery); afterwards, ask `inner`
    /// for one more value if given.
    case deliver(Downstream, Value, askAgain: Subscription?)
    /// Send `completion` downstream and cancel `cancelling`.
    case complete(Downstream, Subscribers.Completion<Downstream.Failure>, cancelling: [Subscription])
    /// Cancel `cancelling` (the completion is left for the thread that is delivering).
    case cancel([Subscription])
  }

  /// `nil` once the subscription completed or was cancelled.
  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var transform: ((Input) -> NewPublisher)?
  @usableFromInline internal var upstream = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var upstreamFinished = false
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var inners: [Int: Inner] = [:]
  @usableFromInline internal var nextInnerID = 0
  /// Values that arrived without demand, oldest first, with the inner that sent each.
  @usableFromInline internal var buffer: [(value: Value, inner: Int)] = []
  @usableFromInline internal var bufferHead = 0
  /// Whether some thread is delivering downstream right now.
  @usableFromInline internal var isDelivering = false
  /// A failure that arrived while another thread was delivering.
  @usableFromInline internal var pendingFailure: Downstream.Failure?

  @inlinable
  internal init(downstream: Downstream, transform: @escaping (Input) -> NewPublisher) {
    self.downstream = downstream
    self.transform = transform
  }

  @inlinable
  internal var isTerminated: Bool { downstream == nil }

  @inlinable
  internal var hasBufferedValues: Bool { bufferHead < buffer.count }

  // MARK: Upstream

  /// An upstream value arrived: returns the transform and the new inner's id.
  @inlinable
  internal mutating func startInner() -> (transform: (Input) -> NewPublisher, id: Int)? {
    guard !isTerminated, let transform else { return nil }
    let id = nextInnerID
    nextInnerID &+= 1
    inners[id] = Inner()
    return (transform, id)
  }

  @inlinable
  internal mutating func upstreamDidFinish() -> Next {
    guard !isTerminated else { return .idle }
    upstreamFinished = true
    _ = upstream.terminate()
    return completeIfDone()
  }

  // MARK: Inner publishers

  /// An inner subscription arrived: returns what to request from it, or `nil` to cancel it.
  @inlinable
  internal mutating func innerSubscribed(_ id: Int, _ subscription: Subscription) -> Subscribers.Demand? {
    guard !isTerminated, inners[id] != nil else { return nil }
    let unlimited = demand == .unlimited
    inners[id]!.subscription = subscription
    inners[id]!.isUnlimited = unlimited
    return unlimited ? .unlimited : .max(1)
  }

  /// An inner value arrived: deliver it now, or buffer it until there is demand.
  @inlinable
  internal mutating func innerValue(_ value: Value, from id: Int) -> Next {
    guard let downstream, let inner = inners[id] else { return .idle }
    if isDelivering || demand == .none || hasBufferedValues {
      buffer.append((value, id))
      return .idle
    }
    isDelivering = true
    demand -= 1
    return .deliver(downstream, value, askAgain: inner.isUnlimited ? nil : inner.subscription)
  }

  /// An inner publisher finished: returns the upstream subscription to request one more
  /// element from (if `maxPublishers` is finite) and what to do next.
  @inlinable
  internal mutating func innerDidFinish(_ id: Int, maxPublishers: Subscribers.Demand) -> (Subscription?, Next) {
    guard !isTerminated, inners.removeValue(forKey: id) != nil else { return (nil, .idle) }
    let replenish = maxPublishers == .unlimited ? nil : upstream.subscription
    return (replenish, completeIfDone())
  }

  // MARK: Failure and cancel

  /// Upstream or an inner publisher failed: everything else is cancelled.
  @inlinable
  internal mutating func fail(_ error: Downstream.Failure) -> Next {
    guard let downstream else { return .idle }
    let cancelling = releaseAll()
    if isDelivering {
      pendingFailure = error
      self.downstream = downstream
      return .cancel(cancelling)
    }
    return .complete(downstream, .failure(error), cancelling: cancelling)
  }

  /// Downstream cancelled: returns the subscriptions to cancel.
  @inlinable
  internal mutating func cancel() -> [Subscription] {
    guard !isTerminated else { return [] }
    return releaseAll()
  }

  /// Drops everything (downstream included) and returns the subscriptions to cancel.
  @inlinable
  internal mutating func releaseAll() -> [Subscription] {
    var cancelling = inners.values.compactMap(\.subscription)
    if let upstream = upstream.terminate() { cancelling.append(upstream) }
    inners = [:]
    buffer = []
    bufferHead = 0
    transform = nil
    downstream = nil
    return cancelling
  }

  // MARK: Downstream demand and delivery

  /// Downstream asked for more: returns the first buffered value to deliver, if this
  /// thread should start delivering.
  @inlinable
  internal mutating func request(_ more: Subscribers.Demand) -> Next {
    guard !isTerminated else { return .idle }
    // Inners subscribed from now on ask for everything once this is unlimited; live ones
    // keep asking one value at a time.
    demand += more
    guard !isDelivering else { return .idle }
    return nextDelivery()
  }

  /// The delivering thread finished handing over a value; `more` is what downstream
  /// returned. Returns the next thing to deliver, or releases delivery.
  @inlinable
  internal mutating func didDeliver(additionalDemand more: Subscribers.Demand) -> Next {
    isDelivering = false
    if let failure = pendingFailure, let downstream {
      pendingFailure = nil
      self.downstream = nil
      return .complete(downstream, .failure(failure), cancelling: [])
    }
    guard !isTerminated else { return .idle }
    demand += more
    return nextDelivery()
  }

  /// Takes the next buffered value if there is demand, else checks for completion.
  @inlinable
  internal mutating func nextDelivery() -> Next {
    guard let downstream else { return .idle }
    if hasBufferedValues && demand > 0 {
      let (value, id) = buffer[bufferHead]
      bufferHead += 1
      if bufferHead == buffer.count {
        buffer.removeAll(keepingCapacity: true)
        bufferHead = 0
      }
      demand -= 1
      isDelivering = true
      let inner = inners[id]
      return .deliver(downstream, value, askAgain: inner?.isUnlimited == false ? inner?.subscription : nil)
    }
    return completeIfDone()
  }

  /// Finishes downstream if upstream and every inner publisher finished and nothing waits.
  @inlinable
  internal mutating func completeIfDone() -> Next {
    guard let downstream, upstreamFinished, inners.isEmpty, !hasBufferedValues, !isDelivering else {
      return .idle
    }
    _ = releaseAll()
    return .complete(downstream, .finished, cancelling: [])
  }
}
