import Synchronization

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
  /// already serialises every access, so the runtime's dynamic exclusivity check would only
  /// add work to every value.
  @exclusivity(unchecked)
  @usableFromInline
  internal var state: State

  /// Who delivers downstream, readable without the lock. `0`: nobody. Bit 0 (``owned``): a
  /// thread owns delivery (`state.isDelivering`, which every critical section reads from
  /// here). Bit 1 (``recheck``): the owner must look at the state under the lock before it
  /// lets go, because another critical section ran meanwhile or something already waited
  /// when it took delivery. With ``owned`` alone, an owner that downstream handed back no
  /// demand lets go with one compare-and-exchange instead of a lock round trip: the common
  /// case of an output handed over with nothing else going on.
  @usableFromInline
  internal let delivery = Atomic<UInt8>(0)

  @usableFromInline
  internal static var owned: UInt8 { 1 }

  @usableFromInline
  internal static var recheck: UInt8 { 2 }

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
    guard let owed = withState({ state.subscribed(side, subscription) }) else {
      subscription.cancel()
      return
    }
    if owed > 0 { subscription.request(owed) }
  }

  @inlinable
  @inline(__always)
  internal func receive(a value: A.Output) -> Subscribers.Demand {
    carryOut(withState { state.receive(a: value) })
  }

  @inlinable
  @inline(__always)
  internal func receive(b value: B.Output) -> Subscribers.Demand {
    carryOut(withState { state.receive(b: value) })
  }

  /// What a value's critical section decided: nothing, a delivery (inline), or anything
  /// else (out of line). Returns the demand owed to the sender.
  @inlinable
  @inline(__always)
  internal func carryOut(_ next: State.Next) -> Subscribers.Demand {
    switch next {
    case .idle: return .none
    case .deliver(let output): return deliver(output)
    default: return perform(next)
    }
  }

  /// The per-value path, written out so that it runs inline in `receive`: this thread took
  /// delivery of `output`; hands it over and lets go, then carries out whatever is left
  /// (out of line). Returns the demand owed to the sender.
  @inlinable
  @inline(__always)
  internal func deliver(_ output: (A.Output, B.Output)) -> Subscribers.Demand {
    let more = downstream.receive(output)
    if more == .none && letGoQuietly() { return .none }
    let (next, owed) = afterDelivery(returning: more)
    return owed + perform(next)
  }

  @inlinable
  internal func upstreamCompleted(_ side: FanInSide, _ completion: Subscribers.Completion<A.Failure>) {
    switch completion {
    case .finished: _ = perform(withState { state.finished(side) })
    case .failure(let error): _ = perform(withState { state.failed(error) })
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
    let (forward, next) = withState { state.request(demand) }
    forward.request(demand)
    _ = perform(next)
  }

  @inlinable
  internal func cancelSpecialized() {
    withState { state.cancel() }.cancel()
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
        if more == .none && letGoQuietly() { return owed }
        let (following, owedNow) = afterDelivery(returning: more)
        owed += owedNow
        next = following
      }
    }
  }

  /// The owner handed an output over and downstream returned no demand: lets go of
  /// delivery with one compare-and-exchange if nothing happened meanwhile (``recheck``
  /// clear). Returns whether it did.
  @inlinable
  @inline(__always)
  internal func letGoQuietly() -> Bool {
    delivery.compareExchange(expected: Self.owned, desired: 0, ordering: .acquiringAndReleasing).exchanged
  }

  /// The owner handed an output over and downstream returned `more`; something may have
  /// happened meanwhile: looks at the state under the lock. Returns what follows and the
  /// demand owed to the sender.
  @inlinable
  internal func afterDelivery(returning more: Subscribers.Demand) -> (State.Next, Subscribers.Demand) {
    guard more != .none else { return withStateAsOwner { state.didDeliver() } }
    let (forward, following, owed) = withStateAsOwner { state.didDeliver(additionalDemand: more) }
    forward.request(more)
    return (following, owed)
  }

  // MARK: Critical sections and delivery ownership

  /// Runs `body` with the lock held, `state.isDelivering` read from ``delivery``. If a thread
  /// owns delivery, it is told to look again before letting go (this section may have left
  /// it work: an output, demand, a failure, a completion). If this section takes delivery,
  /// ``delivery`` says so, with ``recheck`` already set when something waits.
  @inlinable
  @inline(__always)
  internal func withState<Result>(_ body: () -> Result) -> Result {
    lock.withLock {
      var word = delivery.load(ordering: .acquiring)
      if word == Self.owned {
        // The owner may let go meanwhile (then nobody delivers: `original` is 0).
        let (exchanged, original) = delivery.compareExchange(
          expected: word, desired: word | Self.recheck, ordering: .acquiringAndReleasing)
        word = exchanged ? word | Self.recheck : original
      }
      if word == 0 {
        // An owner that let go without the lock left its sender behind.
        state.isDelivering = false
        state.sender = nil
      } else {
        state.isDelivering = true
      }
      let result = body()
      if word == 0 && state.isDelivering {
        delivery.store(state.canLetGoQuietly() ? Self.owned : Self.owned | Self.recheck, ordering: .releasing)
      }
      return result
    }
  }

  /// Runs `body` with the lock held, on the thread that owns delivery (looking at the state
  /// again, so ``recheck`` is cleared), and publishes whether it still does.
  @inlinable
  @inline(__always)
  internal func withStateAsOwner<Result>(_ body: () -> Result) -> Result {
    lock.withLock {
      state.isDelivering = true
      let result = body()
      let word: UInt8 =
        state.isDelivering ? (state.canLetGoQuietly() ? Self.owned : Self.owned | Self.recheck) : 0
      delivery.store(word, ordering: .releasing)
      return result
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
