/// The storage and driver of `combineLatest` over two upstreams; shown as `CombineLatest` by `print`.
@usableFromInline
internal final class CombineLatestSubscription<A: Publisher, B: Publisher, Downstream: Subscriber>: Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where A.Failure == B.Failure, Downstream.Input == (A.Output, B.Output), Downstream.Failure == A.Failure {
  @usableFromInline internal typealias State = CombineLatestState<A.Output, B.Output, Downstream>

  @usableFromInline
  internal let lock = Lock()

  /// Guarded by `lock`.
  @usableFromInline
  internal var state: State

  @inlinable
  internal init(downstream: Downstream) {
    state = State(downstream: downstream)
  }

  @inlinable
  internal func subscribe(_ a: A, _ b: B) {
    lock.withLock { state.downstream }?.receive(subscription: self)
    a.subscribe(CombineLatestSubscriberA(parent: self))
    b.subscribe(CombineLatestSubscriberB(parent: self))
  }

  // MARK: Upstream events

  @inlinable
  internal func upstreamSubscribed(_ side: FanInSide, _ subscription: Subscription) {
    guard let owed = lock.withLock({ state.subscribed(side, subscription) }) else {
      subscription.cancel()
      return
    }
    if owed > 0 { subscription.request(owed) }
  }

  @inlinable
  internal func receiveA(_ value: A.Output) {
    perform(lock.withLock { state.receiveA(value) })
  }

  @inlinable
  internal func receiveB(_ value: B.Output) {
    perform(lock.withLock { state.receiveB(value) })
  }

  @inlinable
  internal func upstreamCompleted(_ side: FanInSide, _ completion: Subscribers.Completion<A.Failure>) {
    switch completion {
    case .finished: perform(lock.withLock { state.finished(side) })
    case .failure(let error): perform(lock.withLock { state.failed(error) })
    }
  }

  // MARK: Downstream

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    let (forward, next) = lock.withLock { state.request(demand) }
    for upstream in forward { upstream.request(demand) }
    perform(next)
  }

  @inlinable
  internal func cancel() {
    for upstream in lock.withLock({ state.cancel() }) { upstream.cancel() }
  }

  @inlinable
  internal func perform(_ next: State.Next) {
    var next = next
    while true {
      switch next {
      case .idle:
        return
      case .cancel(let upstreams):
        for upstream in upstreams { upstream.cancel() }
        return
      case .complete(let downstream, let completion, let upstreams):
        for upstream in upstreams { upstream.cancel() }
        downstream.receive(completion: completion)
        return
      case .deliver(let downstream, let pair):
        let more = downstream.receive(pair)
        let (forward, following) = lock.withLock { state.didDeliver(additionalDemand: more) }
        for upstream in forward { upstream.request(more) }
        next = following
      }
    }
  }

  @usableFromInline
  internal var description: String { "CombineLatest" }

  @usableFromInline
  internal var customMirror: Mirror {
    let (a, b) = lock.withLock { (state.latestA, state.latestB) }
    return Mirror(self, children: ["latestA": a as Any, "latestB": b as Any])
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}

/// Subscribes to the first upstream of a combineLatest on behalf of ``CombineLatestSubscription``.
@usableFromInline
internal struct CombineLatestSubscriberA<A: Publisher, B: Publisher, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible
where A.Failure == B.Failure, Downstream.Input == (A.Output, B.Output), Downstream.Failure == A.Failure {
  @usableFromInline internal typealias Input = A.Output
  @usableFromInline internal typealias Failure = A.Failure

  @usableFromInline
  internal let parent: CombineLatestSubscription<A, B, Downstream>

  @usableFromInline
  internal let combineIdentifier = CombineIdentifier()

  @inlinable
  internal init(parent: CombineLatestSubscription<A, B, Downstream>) {
    self.parent = parent
  }

  @inlinable
  internal func receive(subscription: Subscription) { parent.upstreamSubscribed(.a, subscription) }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    parent.receiveA(input)
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) { parent.upstreamCompleted(.a, completion) }

  @usableFromInline
  internal var description: String { "CombineLatest" }
}

/// Subscribes to the second upstream of a combineLatest on behalf of ``CombineLatestSubscription``.
@usableFromInline
internal struct CombineLatestSubscriberB<A: Publisher, B: Publisher, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible
where A.Failure == B.Failure, Downstream.Input == (A.Output, B.Output), Downstream.Failure == A.Failure {
  @usableFromInline internal typealias Input = B.Output
  @usableFromInline internal typealias Failure = B.Failure

  @usableFromInline
  internal let parent: CombineLatestSubscription<A, B, Downstream>

  @usableFromInline
  internal let combineIdentifier = CombineIdentifier()

  @inlinable
  internal init(parent: CombineLatestSubscription<A, B, Downstream>) {
    self.parent = parent
  }

  @inlinable
  internal func receive(subscription: Subscription) { parent.upstreamSubscribed(.b, subscription) }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    parent.receiveB(input)
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) { parent.upstreamCompleted(.b, completion) }

  @usableFromInline
  internal var description: String { "CombineLatest" }
}
