import Synchronization

/// The storage and driver of a fan-in operator (`zip`, `combineLatest`, of two to four
/// upstreams): subscribes to every upstream, consults ``FanInState`` under the lock and acts
/// on its answer with the lock released. Shown as `Logic.name` (`Zip`, `CombineLatest`) by
/// `print`.
///
/// Generic over the downstream and the logic only, not over the upstream publishers, and
/// seen by them through ``FanInEntry`` (see there why): in a nested `zip` or
/// `combineLatest` a type parameter naming the upstream would grow with every level in the
/// direction values flow, and one naming the downstream would grow in the direction
/// subscribers are handed upstream, and the optimizer's guard against endless
/// specialisation would leave all but two levels unspecialised.
@usableFromInline
internal final class FanInSubscription<Downstream: Subscriber, Logic: FanInLogic>:
  FanInStateHolder<Logic.A, Logic.B, Logic.C, Logic.D, Downstream.Failure, FanInState<Logic, Downstream.Failure>>,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Logic.Output {
  @usableFromInline internal typealias State = FanInState<Logic, Downstream.Failure>

  /// What subscribes to one upstream, sending it values of type `Input` (that side's).
  @usableFromInline
  internal typealias SideSubscriber<Input> = FanInSubscriber<Input, Downstream.Failure>

  @usableFromInline
  internal let lock: BiasedLock

  /// Kept after completion and cancel, as Apple's zip and combineLatest keep theirs (a
  /// subscriber that holds on to its subscription keeps both alive, as on Apple's). A `let`
  /// outside the state, so delivering reads it without the lock and without copying it into
  /// every transition's answer.
  @usableFromInline
  internal let downstream: Downstream

  // `state` (in ``FanInStateHolder``, see there why) is guarded by `lock`: only touched
  // inside `lock.withLock`.

  /// Who delivers downstream, readable without the lock. `0`: nobody. Bit 0 (``owned``): a
  /// thread owns delivery (`state.isDelivering`, which every critical section reads from
  /// here). Bit 1 (``recheck``): the owner must look at the state under the lock before it
  /// lets go, because another critical section ran meanwhile or something already waited
  /// when it took delivery. With ``owned`` alone, an owner that downstream handed back no
  /// demand lets go with one compare-and-exchange instead of a lock round trip: the common
  /// case of an output handed over with nothing else going on.
  ///
  /// Invariant (the protocol `FlatMapDeliveryModel` checks in every interleaving, without
  /// its lane): at most one thread owns delivery, and only the owner calls downstream; the
  /// word changes only under the lock, except the owner exchanging exactly ``owned`` for 0;
  /// every critical section that runs while a thread owns delivery leaves ``recheck`` set,
  /// so that what it left (an output, demand, a completion, a failure) is seen by the owner
  /// under the lock before it lets go. With `CONFLUENCE_LOCKED_FAST_PATHS` the owner always
  /// lets go under the lock, and the word is only written under the lock.
  @usableFromInline
  internal let delivery = Atomic<UInt8>(0)

  @usableFromInline
  internal static var owned: UInt8 { 1 }

  @usableFromInline
  internal static var recheck: UInt8 { 2 }

  @inlinable
  internal init(downstream: Downstream) {
    lock = BiasedLock()
    self.downstream = downstream
    // The handlers cast the entry to this class and run its code, specialised where the
    // types are known. Where this initialiser runs unspecialised, a handler that names this
    // class's types captures their metadata (an allocation per handler): there the handlers
    // of the rare events capture nothing and call methods this class overrides, which find
    // the metadata in the object. The value handlers still capture: called through an
    // override, a value cost about 3% more in `generic-combineLatest-unspecialised`. In an
    // unoptimised build `unsafeDowncast` checks the cast, which looks the class's metadata
    // up in the runtime's cache on every call: there every handler calls the overrides.
    let unspecialised = BuildConfiguration.isUnoptimised || _canBeClass(Downstream.self) > 1
    #if CONFLUENCE_UNOPTIMISED
      let receiveA: ValueHandler = { entry, value in entry.receiveOverridden(value, from: .a) }
      let receiveB: ValueHandler = { entry, value in entry.receiveOverridden(value, from: .b) }
      let receiveC: ValueHandler = { entry, value in entry.receiveOverridden(value, from: .c) }
      let receiveD: ValueHandler = { entry, value in entry.receiveOverridden(value, from: .d) }
    #else
      let receiveA: ValueHandler = { entry, value in
        let value = value.assumingMemoryBound(to: Logic.A.self)
        return unsafeDowncast(entry, to: FanInSubscription.self).receive(from: .a) {
          $0.receive(a: value.pointee, whileDelivering: $1)
        }
      }
      let receiveB: ValueHandler = { entry, value in
        let value = value.assumingMemoryBound(to: Logic.B.self)
        return unsafeDowncast(entry, to: FanInSubscription.self).receive(from: .b) {
          $0.receive(b: value.pointee, whileDelivering: $1)
        }
      }
      let receiveC: ValueHandler = { entry, value in
        let value = value.assumingMemoryBound(to: Logic.C.self)
        return unsafeDowncast(entry, to: FanInSubscription.self).receive(from: .c) {
          $0.receive(c: value.pointee, whileDelivering: $1)
        }
      }
      let receiveD: ValueHandler = { entry, value in
        let value = value.assumingMemoryBound(to: Logic.D.self)
        return unsafeDowncast(entry, to: FanInSubscription.self).receive(from: .d) {
          $0.receive(d: value.pointee, whileDelivering: $1)
        }
      }
    #endif
    // `request(_:)` and `cancel()` arrive through `any Subscription`, which runs this
    // generic class's unspecialised code: they go through `event` too, which runs
    // ``requestSpecialized(_:)`` and ``cancelSpecialized()`` specialised.
    if unspecialised {
      super.init(
        state: State(),
        receiveSubscription: { entry, side, subscription in entry.receiveSubscriptionOverridden(side, subscription) },
        receiveA: receiveA, receiveB: receiveB, receiveC: receiveC, receiveD: receiveD,
        event: { entry, event, side, pointer, word in entry.eventOverridden(event, side, pointer, word) })
    } else {
      super.init(
        state: State(),
        receiveSubscription: { entry, side, subscription in
          unsafeDowncast(entry, to: FanInSubscription.self).upstreamSubscribed(side, subscription)
        },
        receiveA: receiveA, receiveB: receiveB, receiveC: receiveC, receiveD: receiveD,
        event: { entry, event, side, pointer, word in
          unsafeDowncast(entry, to: FanInSubscription.self).handle(event, side, pointer, word)
        })
    }
  }

  /// One of the rare events (see ``FanInEvent``).
  @inlinable
  @inline(__always)
  internal func handle(_ event: FanInEvent, _ side: FanInSide, _ pointer: UnsafeRawPointer?, _ word: UInt64) {
    // The completion out of line: where this runs unspecialised, naming its type here looked
    // `Subscribers.Completion`'s metadata up on every request and cancel too.
    switch event {
    case .completion:
      upstreamCompleted(side, at: pointer.unsafelyUnwrapped)
    case .just:
      receiveJust(from: side, bits: word)
    case .request:
      requestSpecialized(Subscribers.Demand(exactRawValue: UInt(word)))
    case .cancel:
      cancelSpecialized()
    }
  }

  /// `side`'s completion, which `pointer` points to (borrowed).
  @inlinable
  @inline(never)
  internal func upstreamCompleted(_ side: FanInSide, at pointer: UnsafeRawPointer) {
    upstreamCompleted(side, pointer.assumingMemoryBound(to: Subscribers.Completion<Downstream.Failure>.self).pointee)
  }

  #if CONFLUENCE_UNOPTIMISED
    @inlinable
    internal override func receiveOverridden(_ value: UnsafeRawPointer, from side: FanInSide) -> Subscribers.Demand {
      switch side {
      case .a:
        let value = value.assumingMemoryBound(to: Logic.A.self)
        return receive(from: .a) { $0.receive(a: value.pointee, whileDelivering: $1) }
      case .b:
        let value = value.assumingMemoryBound(to: Logic.B.self)
        return receive(from: .b) { $0.receive(b: value.pointee, whileDelivering: $1) }
      case .c:
        let value = value.assumingMemoryBound(to: Logic.C.self)
        return receive(from: .c) { $0.receive(c: value.pointee, whileDelivering: $1) }
      case .d:
        let value = value.assumingMemoryBound(to: Logic.D.self)
        return receive(from: .d) { $0.receive(d: value.pointee, whileDelivering: $1) }
      }
    }
  #endif

  @inlinable
  internal override func receiveSubscriptionOverridden(_ side: FanInSide, _ subscription: Subscription) {
    upstreamSubscribed(side, subscription)
  }

  @inlinable
  internal override func eventOverridden(
    _ event: FanInEvent, _ side: FanInSide, _ pointer: UnsafeRawPointer?, _ word: UInt64
  ) {
    handle(event, side, pointer, word)
  }

  /// Sends this subscription downstream, then subscribes to both upstreams, as its entry
  /// (so that they see a type that names neither the downstream nor each other).
  ///
  /// Consuming: called on a subscription just made, whose reference is moved into the
  /// existential downstream is handed, as `SubjectStorage.receive(subscriber:parent:)` does
  /// (a retain and a release less).
  @inlinable
  internal consuming func subscribe<A: Publisher, B: Publisher>(_ a: A, _ b: B)
  where A.Output == Logic.A, B.Output == Logic.B, A.Failure == Downstream.Failure, B.Failure == Downstream.Failure {
    let unmanaged = Unmanaged.passUnretained(self)
    let erased: Subscription = consume self
    unmanaged._withUnsafeGuaranteedRef { subscription in
      subscription.downstream.receive(subscription: erased)
      subscription.subscribe(a, on: .a)
      subscription.subscribe(b, on: .b)
    }
    withExtendedLifetime(erased) {}
  }

  /// Sends this subscription downstream, then subscribes to the three upstreams, in order
  /// (consuming, as the two-upstream `subscribe`).
  @inlinable
  internal consuming func subscribe<A: Publisher, B: Publisher, C: Publisher>(_ a: A, _ b: B, _ c: C)
  where
    A.Output == Logic.A, B.Output == Logic.B, C.Output == Logic.C, A.Failure == Downstream.Failure,
    B.Failure == Downstream.Failure, C.Failure == Downstream.Failure
  {
    let unmanaged = Unmanaged.passUnretained(self)
    let erased: Subscription = consume self
    unmanaged._withUnsafeGuaranteedRef { subscription in
      subscription.downstream.receive(subscription: erased)
      subscription.subscribe(a, on: .a)
      subscription.subscribe(b, on: .b)
      subscription.subscribe(c, on: .c)
    }
    withExtendedLifetime(erased) {}
  }

  /// Sends this subscription downstream, then subscribes to the four upstreams, in order
  /// (consuming, as the two-upstream `subscribe`).
  @inlinable
  internal consuming func subscribe<A: Publisher, B: Publisher, C: Publisher, D: Publisher>(
    _ a: A, _ b: B, _ c: C, _ d: D
  )
  where
    A.Output == Logic.A, B.Output == Logic.B, C.Output == Logic.C, D.Output == Logic.D,
    A.Failure == Downstream.Failure, B.Failure == Downstream.Failure, C.Failure == Downstream.Failure,
    D.Failure == Downstream.Failure
  {
    let unmanaged = Unmanaged.passUnretained(self)
    let erased: Subscription = consume self
    unmanaged._withUnsafeGuaranteedRef { subscription in
      subscription.downstream.receive(subscription: erased)
      subscription.subscribe(a, on: .a)
      subscription.subscribe(b, on: .b)
      subscription.subscribe(c, on: .c)
      subscription.subscribe(d, on: .d)
    }
    withExtendedLifetime(erased) {}
  }

  /// Subscribes to one upstream (`publisher`, whose values are `side`'s), as this
  /// subscription's entry. A `Just` of a small plain value (known from the types, so the
  /// check costs nothing once specialised) gets no subscription object of its own unless an
  /// introspection watches: see ``FanInJustSubscription``.
  @inlinable
  @inline(__always)
  internal func subscribe<P: Publisher>(_ publisher: P, on side: FanInSide) where P.Failure == Downstream.Failure {
    if FanInJustSubscription.fits(P.Output.self) && KnownJust.matches(P.self) && !DebugHook.isActive {
      justSubscribed(side, KnownJust.output(of: publisher))
    } else {
      publisher._subscribeUpstream(SideSubscriber<P.Output>(parent: self, side: side))
    }
  }

  // MARK: Upstream events

  @inlinable
  internal func upstreamSubscribed(_ side: FanInSide, _ subscription: Subscription) {
    // The state reached through the holder where not specialised (see `receive(from:_:)`).
    let arrived = withState {
      _isConcrete(Logic.self) ? state.subscribed(side, subscription) : subscribedThroughHolder(side, subscription)
    }
    guard let owed = arrived else {
      subscription.cancel()
      return
    }
    if owed > 0 { subscription.request(owed) }
  }

  /// A value arrived from `side`; `keep` hands it to the logic under the lock.
  @inlinable
  @inline(__always)
  internal func receive(from side: FanInSide, _ keep: (inout Logic, _ whileDelivering: Bool) -> Void)
    -> Subscribers.Demand
  {
    // ``withState(_:)`` written out, for code the compiler did not specialise, where every
    // generic type this path names is looked up in the runtime's cache on every value: the
    // closures `withState` takes stay functions of their own there; the state answers with
    // a non-generic step (not a `State.Next`) and the output is taken here; and the state is
    // reached through the holder, which knows its type without naming it
    // (``FanInStateMachine``).
    let acquired = lock.acquire()
    let word = enterSection()
    let step = _isConcrete(Logic.self) ? state.receive(from: side, keep) : receiveThroughHolder(from: side, keep)
    switch step {
    case .idle:
      leaveSection(word)
      lock.release(acquired)
      return .none
    case .deliver:
      if _isConcrete(Logic.self) {
        let output = state.takeReadyOutput()
        leaveSection(word)
        lock.release(acquired)
        return deliver(output)
      }
      // Written element by element into a temporary, then moved out: see
      // `FanInLogic.takeReadyOutput(into:)`.
      return withUnsafeTemporaryAllocation(of: Logic.Output.self, capacity: 1) { buffer in
        let output = buffer.baseAddress.unsafelyUnwrapped
        takeReadyOutputThroughHolder(into: UnsafeMutableRawPointer(output))
        leaveSection(word)
        lock.release(acquired)
        return deliver(output.move())
      }
    case .finish:
      return finishInSection(word, acquired)
    }
  }

  /// ``receive(from:_:)``'s step was `finish`: finishes everything, leaves the critical
  /// section (`word` and `acquired` are its own) and carries the finish out. Out of line,
  /// as is ``continueAfterDelivery(returning:)``: a `State.Next` formed inline on the value
  /// path made code the compiler did not specialise look its metadata up on every value.
  @inlinable
  @inline(never)
  internal func finishInSection(_ word: UInt8, _ acquired: Lock.Hold) -> Subscribers.Demand {
    var next = state.finishAll()
    leaveSection(word)
    lock.release(acquired)
    return perform(&next)
  }

  /// What a value's critical section decided: nothing, a delivery (inline), or anything
  /// else (out of line). Returns the demand owed to the sender.
  @inlinable
  @inline(__always)
  internal func carryOut(_ next: inout State.Next) -> Subscribers.Demand {
    switch next {
    case .idle: return .none
    case .deliver(let output): return deliver(output)
    default: return perform(&next)
    }
  }

  /// The per-value path, written out so that it runs inline in `receive`: this thread took
  /// delivery of `output`; hands it over and lets go, then carries out whatever is left
  /// (out of line). Returns the demand owed to the sender.
  @inlinable
  @inline(__always)
  internal func deliver(_ output: Logic.Output) -> Subscribers.Demand {
    let more = downstream.receive(output)
    if more == .none && letGoQuietly() { return .none }
    return continueAfterDelivery(returning: more)
  }

  /// ``deliver(_:)`` when the owner cannot let go quietly: looks at the state again and
  /// carries out what follows (out of line; see ``finishInSection(_:_:)``).
  @inlinable
  @inline(never)
  internal func continueAfterDelivery(returning more: Subscribers.Demand) -> Subscribers.Demand {
    var (next, owed) = afterDelivery(returning: more)
    return owed + perform(&next)
  }

  /// The `Just` on `side` subscribed, with the value `value` (see ``FanInJustSubscription``):
  /// what its subscription arriving does, asking it for its value at once if demand waits.
  @inlinable
  internal func justSubscribed<Value>(_ side: FanInSide, _ value: Value) {
    let just = FanInJustSubscription(parent: self, side: side, value: value)
    // Subscribed and, when downstream has asked already (as it has when it asks from
    // `receive(subscription:)`, which ran first), its value and completion received: what a
    // `Just` does when asked, in the same critical section. Nothing to cancel if it ended
    // already. ``withState(_:)`` written out, and the state reached through the holder
    // where not specialised, as in ``receive(from:_:)``.
    let acquired = lock.acquire()
    let word = enterSection()
    let arrival = _isConcrete(Logic.self) ? state.justArrived(side, just) : justArrivedThroughHolder(side, just)
    carryOutJust(arrival, from: side, word, acquired)
  }

  /// Leaves the critical section of a `Just`'s arrival (`word` and `acquired` are its own)
  /// and carries out what `arrival` says.
  @inlinable
  @inline(__always)
  internal func carryOutJust(_ arrival: FanInJustArrival, from side: FanInSide, _ word: UInt8, _ acquired: Lock.Hold) {
    switch arrival {
    case .nothing, .settled:
      leaveSection(word)
      lock.release(acquired)
    case .valueStep(let step):
      carryOutStepInSection(step, thenFinish: side, word, acquired)
    case .completionStep(let step):
      carryOutStepInSection(step, thenFinish: nil, word, acquired)
    }
  }

  /// Turns `step` into a `Next`, leaves the critical section (`word` and `acquired` are its
  /// own), carries the `Next` out, and then finishes `side` if one is given (the `Just`'s
  /// completion, not yet taken). Out of line, so that a `Just`'s common path forms no
  /// `State.Next` and no completion (see ``FanInJustArrival``).
  @inlinable
  @inline(never)
  internal func carryOutStepInSection(
    _ step: FanInStep, thenFinish side: FanInSide?, _ word: UInt8, _ acquired: Lock.Hold
  ) {
    var next = state.next(after: step)
    leaveSection(word)
    lock.release(acquired)
    _ = carryOut(&next)
    if let side { upstreamCompleted(side, .finished) }
  }

  /// The `Just` on `side`, whose value's bytes are `bits`, was asked for values (see
  /// ``FanInJustSubscription``): delivers its value and then its completion, as a live `Just`
  /// would, the first time only. The demand owed for the value is dropped, as a `Just` drops
  /// what its subscriber returns.
  @inlinable
  internal func receiveJust(from side: FanInSide, bits: UInt64) {
    let acquired = lock.acquire()
    let word = enterSection()
    let arrival =
      _isConcrete(Logic.self) ? state.takeJust(from: side, bits: bits) : takeJustThroughHolder(from: side, bits: bits)
    carryOutJust(arrival, from: side, word, acquired)
  }

  @inlinable
  internal func upstreamCompleted(_ side: FanInSide, _ completion: Subscribers.Completion<Downstream.Failure>) {
    switch completion {
    case .finished:
      var next = withState { state.finished(side) }
      _ = perform(&next)
    case .failure(let error):
      var next = withState { state.failed(error) }
      _ = perform(&next)
    }
  }

  // MARK: Downstream

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    event(self, .request, .a, nil, UInt64(demand.rawValue))
  }

  @inlinable
  internal func cancel() {
    event(self, .cancel, .a, nil, 0)
  }

  @inlinable
  internal func requestSpecialized(_ demand: Subscribers.Demand) {
    // ``withState(_:)`` written out, the state reached through the holder where not
    // specialised and answering with a step, as in ``receive(from:_:)``: the common request
    // sets nothing off and forms no `State.Next`.
    let acquired = lock.acquire()
    let word = enterSection()
    var (forward, step) =
      _isConcrete(Logic.self) ? state.requestStep(demand) : requestStepThroughHolder(demand)
    guard case .idle = step else {
      return requestInSection(step, forwarding: forward, demand, word, acquired)
    }
    leaveSection(word)
    lock.release(acquired)
    forward.request(demand)
  }

  /// ``requestSpecialized(_:)`` when its step is not `idle`: turns it into a `Next`, leaves
  /// the critical section (`word` and `acquired` are its own), forwards `demand` and carries
  /// the `Next` out. Out of line (see ``finishInSection(_:_:)``).
  @inlinable
  @inline(never)
  internal func requestInSection(
    _ step: FanInStep, forwarding forward: consuming FanInUpstreams, _ demand: Subscribers.Demand, _ word: UInt8,
    _ acquired: Lock.Hold
  ) {
    var next = state.next(after: step)
    leaveSection(word)
    lock.release(acquired)
    var forward = forward
    forward.request(demand)
    _ = perform(&next)
  }

  @inlinable
  internal func cancelSpecialized() {
    var released = withState { _isConcrete(Logic.self) ? state.cancel() : cancelThroughHolder() }
    released.cancel()
  }

  /// Performs `next` and what follows it; returns the demand owed to the side whose value
  /// set the deliveries off (none when none did).
  ///
  /// `inout`, so that the caller's `Next` is worked on in place: taken by value it was copied
  /// into the loop's variable, and Swift copies this generic enum through its value
  /// witnesses. (`consuming` would say it better, but crashes the 6.3 compiler's move
  /// checker on an enum with `indirect` cases.)
  @inlinable
  internal func perform(_ next: inout State.Next) -> Subscribers.Demand {
    var owed = Subscribers.Demand.none
    while true {
      switch next {
      case .idle:
        return owed
      case .cancel(var upstreams):
        upstreams.cancel()
        return owed
      case .complete(let completion, var upstreams):
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
    #if CONFLUENCE_LOCKED_FAST_PATHS
      // The locked equivalent: the owner always looks at the state under the lock.
      return false
    #else
      return delivery.compareExchange(expected: Self.owned, desired: 0, ordering: .acquiringAndReleasing).exchanged
    #endif
  }

  /// The owner handed an output over and downstream returned `more`; something may have
  /// happened meanwhile: looks at the state under the lock. Returns what follows and the
  /// demand owed to the sender.
  @inlinable
  internal func afterDelivery(returning more: Subscribers.Demand) -> (State.Next, Subscribers.Demand) {
    guard more != .none else { return withStateAsOwner { state.didDeliver() } }
    var (forward, following, owed) = withStateAsOwner { state.didDeliver(additionalDemand: more) }
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
      let word = enterSection()
      let result = body()
      leaveSection(word)
      return result
    }
  }

  /// The start of every critical section of ``withState(_:)``, the lock held: reads
  /// ``delivery`` into `state.isDelivering` (asking an owner to look again) and returns the
  /// word as it was, for ``leaveSection(_:)``.
  @inlinable
  @inline(__always)
  internal func enterSection() -> UInt8 {
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
    return word
  }

  /// The end of every critical section of ``withState(_:)``, the lock still held: if the
  /// section took delivery (`word`, from ``enterSection()``, was 0), publishes it in
  /// ``delivery``.
  @inlinable
  @inline(__always)
  internal func leaveSection(_ word: UInt8) {
    if word == 0 && state.isDelivering {
      delivery.store(stateCanLetGoQuietly() ? Self.owned : Self.owned | Self.recheck, ordering: .releasing)
    }
  }

  /// `state.canLetGoQuietly()`, through the holder where not specialised (see
  /// ``FanInStateMachine``).
  @inlinable
  @inline(__always)
  internal func stateCanLetGoQuietly() -> Bool {
    _isConcrete(Logic.self) ? state.canLetGoQuietly() : canLetGoQuietlyThroughHolder()
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
        state.isDelivering ? (stateCanLetGoQuietly() ? Self.owned : Self.owned | Self.recheck) : 0
      delivery.store(word, ordering: .releasing)
      return result
    }
  }

  @usableFromInline
  internal var description: String { Logic.name }

  @usableFromInline
  internal var customMirror: Mirror {
    let (held, demand) = lock.withLock { (state.logic.heldValueCount, state.demand) }
    return Mirror(self, children: ["heldValues": held, "demand": demand], ancestorRepresentation: .suppressed)
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
