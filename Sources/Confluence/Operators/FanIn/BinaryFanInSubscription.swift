/// The storage and driver of a two-upstream operator (`zip`, `combineLatest`): subscribes
/// to both upstreams, consults ``BinaryFanInState`` under the lock and acts on its answer
/// with the lock released. Shown as `Logic.name` (`Zip`, `CombineLatest`) by `print`.
@usableFromInline
internal final class BinaryFanInSubscription<
  A: Publisher, B: Publisher, Downstream: Subscriber, Logic: BinaryFanInLogic
>: Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where
  A.Failure == B.Failure, Logic.A == A.Output, Logic.B == B.Output,
  Downstream.Input == (A.Output, B.Output), Downstream.Failure == A.Failure
{
  @usableFromInline internal typealias State = BinaryFanInState<Logic, Downstream>

  @usableFromInline
  internal let lock = Lock()

  /// Guarded by `lock`.
  @usableFromInline
  internal var state: State

  @inlinable
  internal init(downstream: Downstream) {
    state = State(downstream: downstream)
  }

  /// Sends this subscription downstream, then subscribes to both upstreams.
  @inlinable
  internal func subscribe(_ a: A, _ b: B) {
    lock.withLock { state.downstream }.receive(subscription: self)
    a.subscribe(FanInSubscriberA(parent: self))
    b.subscribe(FanInSubscriberB(parent: self))
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
  internal func receive(a value: A.Output) -> Subscribers.Demand {
    perform(lock.withLock { state.receive(a: value) })
  }

  @inlinable
  internal func receive(b value: B.Output) -> Subscribers.Demand {
    perform(lock.withLock { state.receive(b: value) })
  }

  @inlinable
  internal func upstreamCompleted(_ side: FanInSide, _ completion: Subscribers.Completion<A.Failure>) {
    switch completion {
    case .finished: _ = perform(lock.withLock { state.finished(side) })
    case .failure(let error): _ = perform(lock.withLock { state.failed(error) })
    }
  }

  // MARK: Downstream

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    let (forward, next) = lock.withLock { state.request(demand) }
    for upstream in forward { upstream.request(demand) }
    _ = perform(next)
  }

  @inlinable
  internal func cancel() {
    for upstream in lock.withLock({ state.cancel() }) { upstream.cancel() }
  }

  /// Performs `next` and what follows it; returns the demand owed to the side whose value
  /// set the deliveries off (none when none did).
  @inlinable
  internal func perform(_ next: State.Next) -> Subscribers.Demand {
    var next = next
    var owed = Subscribers.Demand.none
    while true {
      switch next {
      case .idle:
        return owed
      case .cancel(let upstreams):
        for upstream in upstreams { upstream.cancel() }
        return owed
      case .complete(let downstream, let completion, let upstreams):
        for upstream in upstreams { upstream.cancel() }
        downstream.receive(completion: completion)
        return owed
      case .deliver(let downstream, let output):
        let more = downstream.receive(output)
        let (forward, following, owedNow) = lock.withLock { state.didDeliver(additionalDemand: more) }
        for upstream in forward { upstream.request(more) }
        owed += owedNow
        next = following
      }
    }
  }

  @usableFromInline
  internal var description: String { Logic.name }

  @usableFromInline
  internal var customMirror: Mirror {
    let (held, demand) = lock.withLock { (state.logic.heldValueCount, state.demand) }
    return Mirror(self, children: ["heldValues": held, "demand": demand])
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}

/// Subscribes to the first upstream on behalf of ``BinaryFanInSubscription``.
@usableFromInline
internal struct FanInSubscriberA<A: Publisher, B: Publisher, Downstream: Subscriber, Logic: BinaryFanInLogic>:
  Subscriber, CustomStringConvertible
where
  A.Failure == B.Failure, Logic.A == A.Output, Logic.B == B.Output,
  Downstream.Input == (A.Output, B.Output), Downstream.Failure == A.Failure
{
  @usableFromInline internal typealias Input = A.Output
  @usableFromInline internal typealias Failure = A.Failure

  @usableFromInline internal let parent: BinaryFanInSubscription<A, B, Downstream, Logic>
  @usableFromInline internal let combineIdentifier = CombineIdentifier()

  @inlinable
  internal init(parent: BinaryFanInSubscription<A, B, Downstream, Logic>) {
    self.parent = parent
  }

  @inlinable internal func receive(subscription: Subscription) { parent.upstreamSubscribed(.a, subscription) }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    parent.receive(a: input)
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) { parent.upstreamCompleted(.a, completion) }

  @usableFromInline internal var description: String { Logic.name }
}

/// Subscribes to the second upstream on behalf of ``BinaryFanInSubscription``.
@usableFromInline
internal struct FanInSubscriberB<A: Publisher, B: Publisher, Downstream: Subscriber, Logic: BinaryFanInLogic>:
  Subscriber, CustomStringConvertible
where
  A.Failure == B.Failure, Logic.A == A.Output, Logic.B == B.Output,
  Downstream.Input == (A.Output, B.Output), Downstream.Failure == A.Failure
{
  @usableFromInline internal typealias Input = B.Output
  @usableFromInline internal typealias Failure = B.Failure

  @usableFromInline internal let parent: BinaryFanInSubscription<A, B, Downstream, Logic>
  @usableFromInline internal let combineIdentifier = CombineIdentifier()

  @inlinable
  internal init(parent: BinaryFanInSubscription<A, B, Downstream, Logic>) {
    self.parent = parent
  }

  @inlinable internal func receive(subscription: Subscription) { parent.upstreamSubscribed(.b, subscription) }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    parent.receive(b: input)
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) { parent.upstreamCompleted(.b, completion) }

  @usableFromInline internal var description: String { Logic.name }
}
