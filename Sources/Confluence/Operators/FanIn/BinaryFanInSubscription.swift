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
  @usableFromInline internal typealias State = BinaryFanInState<Logic, Downstream.Failure>

  @usableFromInline
  internal let lock = Lock()

  /// Kept after completion and cancel, as Apple's zip and combineLatest keep theirs (a
  /// subscriber that holds on to its subscription keeps both alive, as on Apple's). A `let`
  /// outside the state, so delivering reads it without the lock and without copying it into
  /// every transition's answer.
  @usableFromInline
  internal let downstream: Downstream

  /// Guarded by `lock`. `@exclusivity(unchecked)`: only touched inside `lock.withLock`, which
  /// already serialises every access; the runtime's dynamic check cost about a fifth of the
  /// instructions per value (callgrind, zip of two subjects).
  @exclusivity(unchecked)
  @usableFromInline
  internal var state: State

  /// Runs ``requestSpecialized(_:)`` (demand non-zero) or ``cancelSpecialized()`` (demand
  /// `.none`) in code specialised for this subscription's types: `request` and `cancel`
  /// arrive through `any Subscription`, where the class's own methods run unspecialised
  /// and look up generic metadata (the state, its transition enum, the output tuple) in
  /// the runtime's cache on every call. Captures nothing, so it costs no allocation.
  @usableFromInline
  internal let specialized: (BinaryFanInSubscription, Subscribers.Demand) -> Void

  @inlinable
  internal init(downstream: Downstream) {
    self.downstream = downstream
    state = State()
    specialized = { subscription, demand in
      if demand == .none {
        subscription.cancelSpecialized()
      } else {
        subscription.requestSpecialized(demand)
      }
    }
  }

  /// Sends this subscription downstream, then subscribes to both upstreams.
  @inlinable
  internal func subscribe(_ a: A, _ b: B) {
    downstream.receive(subscription: self)
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
    specialized(self, demand)
  }

  @inlinable
  internal func cancel() {
    specialized(self, .none)
  }

  @inlinable
  internal func requestSpecialized(_ demand: Subscribers.Demand) {
    let (forward, next) = lock.withLock { state.request(demand) }
    forward.request(demand)
    _ = perform(next)
  }

  @inlinable
  internal func cancelSpecialized() {
    lock.withLock { state.cancel() }.cancel()
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
        upstreams.cancel()
        return owed
      case .complete(let completion, let upstreams):
        upstreams.cancel()
        downstream.receive(completion: completion)
        return owed
      case .completeOnly(let completion):
        downstream.receive(completion: completion)
        return owed
      case .deliver(let output):
        let more = downstream.receive(output)
        if more == .none {
          let (following, owedNow) = lock.withLock { state.didDeliver() }
          owed += owedNow
          next = following
        } else {
          let (forward, following, owedNow) = lock.withLock { state.didDeliver(additionalDemand: more) }
          forward.request(more)
          owed += owedNow
          next = following
        }
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
