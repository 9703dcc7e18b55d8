/// The storage and driver of `switchToLatest`; shown as `SwitchToLatest` by `print`.
@usableFromInline
internal final class SwitchToLatestSubscription<P: Publisher, Upstream: Publisher, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where P == Upstream.Output, P.Failure == Upstream.Failure, Downstream.Input == P.Output,
  Downstream.Failure == P.Failure
{
  @usableFromInline internal typealias Input = P
  @usableFromInline internal typealias Failure = Upstream.Failure
  @usableFromInline internal typealias State = SwitchToLatestState<Downstream>

  @usableFromInline
  internal let lock = Lock()

  /// Guarded by `lock`.
  @usableFromInline
  internal var state: State

  @inlinable
  internal init(downstream: Downstream) {
    state = State(downstream: downstream)
  }

  // MARK: Upstream

  /// As Apple's `SwitchToLatest`: hands this subscription downstream before upstream is
  /// subscribed to (called by ``Publishers/SwitchToLatest``).
  @inlinable
  internal func subscribeDownstreamFirst() {
    let downstream = lock.withLock { () -> Downstream in
      state.downstreamHasSubscription = true
      return state.downstream
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    let (accepted, downstream) = lock.withLock { () -> (Bool, Downstream?) in
      guard state.upstream.accept(subscription) else { return (false, nil) }
      return (true, state.downstreamHasSubscription ? nil : state.downstream)
    }
    guard accepted else {
      subscription.cancel()
      return
    }
    downstream?.receive(subscription: self)
    subscription.request(.unlimited)
  }

  @inlinable
  internal func receive(_ input: P) -> Subscribers.Demand {
    guard let (id, previous) = lock.withLock({ state.switchInner() }) else { return .none }
    previous?.cancel()
    input.subscribe(SwitchToLatestInner(parent: self, id: id))
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished: perform(lock.withLock { state.upstreamDidFinish() })
    case .failure(let error): perform(lock.withLock { state.fail(error, innerID: nil) })
    }
  }

  // MARK: Inner

  @inlinable
  internal func innerReceive(subscription: Subscription, id: Int) {
    guard let demand = lock.withLock({ state.innerSubscribed(id, subscription) }) else {
      subscription.cancel()
      return
    }
    if demand > 0 { subscription.request(demand) }
  }

  /// An inner value: returns the demand for the inner publisher's `receive(_:)` to return.
  /// As Apple's: what downstream returns for a value delivered at once goes back to the
  /// inner publisher that sent it through that return, not through `request(_:)`.
  @inlinable
  internal func innerReceive(_ value: Downstream.Input, id: Int) -> Subscribers.Demand {
    guard case .deliver(let downstream, let value) = lock.withLock({ state.innerValue(value, id: id) }) else {
      return .none
    }
    let more = downstream.receive(value)
    let (forward, following) = lock.withLock { state.didDeliver(additionalDemand: more) }
    // `forward` is the current inner: this one unless a newer one replaced it meanwhile.
    let returned: Subscribers.Demand
    if let forward, !lock.withLock({ state.currentID == id }) {
      forward.request(more)
      returned = .none
    } else {
      returned = more
    }
    perform(following)
    return returned
  }

  @inlinable
  internal func innerReceive(completion: Subscribers.Completion<Failure>, id: Int) {
    switch completion {
    case .finished: perform(lock.withLock { state.innerFinished(id: id) })
    case .failure(let error): perform(lock.withLock { state.fail(error, innerID: id) })
    }
  }

  // MARK: Downstream

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    lock.withLock { state.request(demand) }?.request(demand)
  }

  @inlinable
  internal func cancel() {
    for subscription in lock.withLock({ state.cancel() }) { subscription.cancel() }
  }

  @inlinable
  internal func perform(_ next: State.Next) {
    var next = next
    while true {
      switch next {
      case .idle:
        return
      case .cancel(let subscriptions):
        for subscription in subscriptions { subscription.cancel() }
        return
      case .complete(let downstream, let completion, let subscriptions):
        for subscription in subscriptions { subscription.cancel() }
        downstream.receive(completion: completion)
        return
      case .deliver(let downstream, let value):
        let more = downstream.receive(value)
        let (forward, following) = lock.withLock { state.didDeliver(additionalDemand: more) }
        forward?.request(more)
        next = following
      }
    }
  }

  @usableFromInline
  internal var description: String { "SwitchToLatest" }

  @usableFromInline
  internal var customMirror: Mirror {
    Mirror(self, children: ["demand": lock.withLock { state.demand }])
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}

/// Subscribes to one inner publisher on behalf of ``SwitchToLatestSubscription``.
@usableFromInline
internal struct SwitchToLatestInner<P: Publisher, Upstream: Publisher, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where P == Upstream.Output, P.Failure == Upstream.Failure, Downstream.Input == P.Output,
  Downstream.Failure == P.Failure
{
  @usableFromInline internal typealias Input = P.Output
  @usableFromInline internal typealias Failure = P.Failure

  @usableFromInline
  internal let parent: SwitchToLatestSubscription<P, Upstream, Downstream>

  @usableFromInline
  internal let id: Int

  @usableFromInline
  internal let combineIdentifier = CombineIdentifier()

  @inlinable
  internal init(parent: SwitchToLatestSubscription<P, Upstream, Downstream>, id: Int) {
    self.parent = parent
    self.id = id
  }

  @inlinable
  internal func receive(subscription: Subscription) { parent.innerReceive(subscription: subscription, id: id) }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    parent.innerReceive(input, id: id)
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    parent.innerReceive(completion: completion, id: id)
  }

  @usableFromInline
  internal var description: String { "SwitchToLatest" }

  /// As Apple's, the inner subscriber reflects as the operator, showing the identity of
  /// the operator's own subscription.
  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: ["parentSubscription": parent.combineIdentifier]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
