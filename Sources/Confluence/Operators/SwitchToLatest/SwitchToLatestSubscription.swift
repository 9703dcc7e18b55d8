/// The storage and driver of `switchToLatest`; shown as `SwitchToLatest` by `print`.
///
/// Generic over the inner publisher and the downstream only, and subscribed upstream as a
/// ``SwitchToLatestEntry`` (see there why), whose three functions, formed here, call
/// ``upstreamSubscription(_:)``, ``upstreamValue(_:)`` and ``upstreamCompletion(_:)``.
@usableFromInline
internal final class SwitchToLatestSubscription<P: Publisher, Downstream: Subscriber>:
  SwitchToLatestEntry<P>, Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
  @usableFromInline internal typealias State = SwitchToLatestState<Downstream>

  @usableFromInline
  internal let lock: BiasedLock

  /// Guarded by `lock`. `@exclusivity(unchecked)`: only accessed inside it, which already
  /// makes the accesses exclusive; the dynamic checks would cost two runtime calls per
  /// access. A stored property of this class, not of a holder class generic over the state's
  /// type as `flatMap`'s: every field of ``SwitchToLatestState`` has a size that does not
  /// depend on the generic parameters (its subscriptions are held class-bound, its backlog
  /// is a class), so the unspecialised `deinit` destroys it inline, without its metadata.
  @exclusivity(unchecked)
  @usableFromInline
  internal final var state: State

  /// Runs ``requestSpecialized(_:)`` (demand non-zero) or ``cancelSpecialized()`` (demand
  /// `.none`) in code specialised for this subscription's types: `request` and `cancel`
  /// arrive through `any Subscription`, where the class's own methods run unspecialised and
  /// looked the state's generic metadata up in the runtime's cache on every call (a
  /// pipeline of five `switchToLatest`s built and dropped paid it nine times). Captures
  /// nothing, so it costs no allocation (its type names no generic parameter, for the
  /// reason ``SwitchToLatestEntryRoot`` gives).
  @usableFromInline
  internal let specialized: (SwitchToLatestEntryRoot, Subscribers.Demand) -> Void

  /// Kept after completion and cancel, as Apple's switchToLatest keeps it (a subscriber
  /// that holds on to its subscription keeps both alive, as on Apple's). Immutable, so read
  /// without the lock; the state machine's actions name no subscriber, so deciding what to
  /// do next copies none.
  @usableFromInline
  internal let downstream: Downstream

  /// Whether the inner publishers are `Just` (see ``upstreamValue(_:)``): decided once
  /// here, so that code running unspecialised does not look `Just`'s metadata up for every
  /// inner publisher.
  @usableFromInline
  internal let innerIsJust: Bool

  @inlinable
  internal init(downstream: Downstream) {
    lock = BiasedLock()
    self.downstream = downstream
    innerIsJust = KnownJust.matches(P.self)
    // The handlers cast the entry to this class and run its code, specialised where the
    // types are known. Where this initialiser runs unspecialised, the handlers of the rare
    // events capture nothing and call the methods this class overrides instead, and in an
    // unoptimised build every handler does (see `SwitchToLatestEntryRoot` why). The value
    // handler still captures where unspecialised: through an override, a value costs more.
    let unspecialised = BuildConfiguration.isUnoptimised || _canBeClass(Downstream.self) > 1
    #if CONFLUENCE_UNOPTIMISED
      let receiveValue: ValueHandler = { entry, input in entry.receiveValueOverridden(input) }
    #else
      let receiveValue: ValueHandler = { entry, input in
        unsafeDowncast(entry, to: SwitchToLatestSubscription.self).upstreamValue(
          input.assumingMemoryBound(to: P.self).pointee)
      }
    #endif
    if unspecialised {
      specialized = { entry, demand in entry.requestOrCancelOverridden(demand) }
      state = State()
      super.init(
        receiveSubscription: { entry, subscription in entry.receiveSubscriptionOverridden(subscription) },
        receiveValue: receiveValue,
        receiveCompletion: { entry, completion in entry.receiveCompletionOverridden(completion) })
    } else {
      specialized = { entry, demand in
        let subscription = unsafeDowncast(entry, to: SwitchToLatestSubscription.self)
        if demand == .none {
          subscription.cancelSpecialized()
        } else {
          subscription.requestSpecialized(demand)
        }
      }
      state = State()
      super.init(
        receiveSubscription: { entry, subscription in
          unsafeDowncast(entry, to: SwitchToLatestSubscription.self).upstreamSubscription(subscription)
        },
        receiveValue: receiveValue,
        receiveCompletion: { entry, completion in
          unsafeDowncast(entry, to: SwitchToLatestSubscription.self).upstreamCompletion(
            completion.assumingMemoryBound(to: Subscribers.Completion<P.Failure>.self).pointee)
        })
    }
  }

  @inlinable
  internal override func receiveSubscriptionOverridden(_ subscription: Subscription) {
    upstreamSubscription(subscription)
  }

  #if CONFLUENCE_UNOPTIMISED
    @inlinable
    internal override func receiveValueOverridden(_ input: UnsafeRawPointer) -> Subscribers.Demand {
      upstreamValue(input.assumingMemoryBound(to: P.self).pointee)
    }
  #endif

  @inlinable
  internal override func receiveCompletionOverridden(_ completion: UnsafeRawPointer) {
    upstreamCompletion(completion.assumingMemoryBound(to: Subscribers.Completion<P.Failure>.self).pointee)
  }

  @inlinable
  internal override func requestOrCancelOverridden(_ demand: Subscribers.Demand) {
    if demand == .none {
      cancelSpecialized()
    } else {
      requestSpecialized(demand)
    }
  }

  // MARK: Upstream

  /// As Apple's `SwitchToLatest`: hands this subscription downstream before upstream is
  /// subscribed to (called by ``Publishers/SwitchToLatest``). `erased` is this subscription
  /// as the existential downstream takes (moved into it by the caller).
  @inlinable
  internal func subscribeDownstreamFirst(_ erased: borrowing any Subscription) {
    // A subscription just made, which nothing else references yet: no other thread can
    // read `state`, so it is written without the lock.
    state.downstreamHasSubscription = true
    downstream.receive(subscription: erased)
  }

  /// The upstream subscription arrived.
  @inlinable
  internal func upstreamSubscription(_ subscription: Subscription) {
    let (accepted, downstreamHasSubscription) = lock.withLock { () -> (Bool, Bool) in
      guard state.upstream.accept(subscription) else { return (false, true) }
      return (true, state.downstreamHasSubscription)
    }
    guard accepted else {
      subscription.cancel()
      return
    }
    if !downstreamHasSubscription { downstream.receive(subscription: self) }
    subscription.request(.unlimited)
  }

  /// A new inner publisher arrived from upstream.
  @inlinable
  internal func upstreamValue(_ input: P) -> Subscribers.Demand {
    // A `Just` (known from the type) that could deliver at once is not subscribed to unless
    // an introspection watches: see ``justValueAtOnce(_:id:)``.
    var atOnce = innerIsJust && !DebugHook.isActive
    var previous = SubscriptionStatus.terminal
    // Sections written out between `acquire()` and `release(_:)`, not in closures, which
    // unspecialised code (an unoptimised build) runs as functions of their own, each looking the
    // state's generic metadata up again.
    var acquired = lock.acquire()
    let switched = state.switchInner(previous: &previous, deliveringAtOnce: &atOnce)
    lock.release(acquired)
    guard let id = switched else { return .none }
    if previous.isSubscribed {
      previous.cancelSubscription()
      if atOnce {
        acquired = lock.acquire()
        atOnce = state.innerValueAtOnce(id: id)
        lock.release(acquired)
      }
    }
    if atOnce {
      justValueAtOnce(input, id: id)
      return .none
    }
    input._subscribeUpstream(SwitchToLatestInner(parent: self, id: id))
    return .none
  }

  /// A `Just` inner whose value ``SwitchToLatestState/innerValueAtOnce(id:)`` let through:
  /// what subscribing to it would do, without its subscription.
  ///
  /// Subscribed to, a `Just` answers its subscriber's request at once with its value and
  /// `.finished`, and nothing outside the pipeline can see its subscription (its
  /// subscriber's further requests and its cancel change nothing). So this delivers the
  /// value as the inner value of the current inner publisher, then finishes that inner
  /// publisher: the same transitions of ``SwitchToLatestState`` in the same order, without
  /// the subscription's allocation and two of the critical sections.
  @inlinable
  internal func justValueAtOnce(_ input: P, id: Int) {
    let value = KnownJust.output(of: input)
    let more = downstream.receive(value)
    let acquired = lock.acquire()
    let isDone = state.didDeliverAndFinishQuietly(additionalDemand: more, id: id)
    lock.release(acquired)
    if !isDone { finishJustValue(id: id, returning: more) }
  }

  /// ``justValueAtOnce(_:id:)`` when the delivery left something to do: forwards demand,
  /// delivers or completes what is due, and finishes the inner. (Apart, so that its
  /// temporaries, a `Next` among them, are not looked up on every value in unspecialised
  /// code.)
  @inlinable
  @inline(never)
  internal func finishJustValue(id: Int, returning more: Subscribers.Demand) {
    var forward = SubscriptionStatus.terminal
    var finished = false
    let following = lock.withLock {
      state.didDeliver(additionalDemand: more, forward: &forward, finishingAtOnce: id, finished: &finished)
    }
    // Not this inner's subscription (it has none): a newer inner's, subscribed meanwhile.
    forward.requestAndRelease(more)
    perform(consume following)
    if !finished { perform(lock.withLock { state.innerFinishedAtOnce(id: id) }) }
  }

  /// The upstream completed.
  @inlinable
  internal func upstreamCompletion(_ completion: Subscribers.Completion<P.Failure>) {
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
    guard case .deliver(let value) = lock.withLock({ state.innerValue(value, id: id) }) else {
      return .none
    }
    let more = downstream.receive(value)
    var forward = SubscriptionStatus.terminal
    let following = lock.withLock { state.didDeliver(additionalDemand: more, forward: &forward) }
    // `forward` is the current inner: this one unless a newer one replaced it meanwhile.
    let returned: Subscribers.Demand
    if forward.isSubscribed, !lock.withLock({ state.currentID == id }) {
      forward.requestAndRelease(more)
      returned = .none
    } else {
      returned = more
    }
    perform(consume following)
    return returned
  }

  @inlinable
  internal func innerReceive(completion: Subscribers.Completion<P.Failure>, id: Int) {
    switch completion {
    case .finished: perform(lock.withLock { state.innerFinished(id: id) })
    case .failure(let error): perform(lock.withLock { state.fail(error, innerID: id) })
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
    lock.withLock { state.request(demand) }.requestAndRelease(demand)
  }

  @inlinable
  internal func cancelSpecialized() {
    var inner = SubscriptionStatus.terminal
    let upstream = lock.withLock { state.cancel(inner: &inner) }
    (consume inner).cancelSubscription()
    (consume upstream).cancelSubscription()
  }

  @inlinable
  internal func perform(_ next: consuming State.Next) {
    // Consumed, not copied: a copy of the generic `Next` runs through its value witnesses.
    var next = next
    while true {
      switch consume next {
      case .idle:
        return
      case .cancel(let subscriptions):
        subscriptions.cancel()
        return
      case .complete(let completion, let subscriptions):
        subscriptions.cancel()
        downstream.receive(completion: completion)
        return
      case .deliver(let value):
        let more = downstream.receive(value)
        var forward = SubscriptionStatus.terminal
        next = lock.withLock { state.didDeliver(additionalDemand: more, forward: &forward) }
        forward.requestAndRelease(more)
      }
    }
  }

  @usableFromInline
  internal var description: String { "SwitchToLatest" }

  @usableFromInline
  internal var customMirror: Mirror {
    Mirror(self, children: ["demand": lock.withLock { state.demand }], ancestorRepresentation: .suppressed)
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}

/// Subscribes to one inner publisher on behalf of ``SwitchToLatestSubscription``.
@usableFromInline
@_eagerMove
internal struct SwitchToLatestInner<P: Publisher, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
  @usableFromInline internal typealias Input = P.Output
  @usableFromInline internal typealias Failure = P.Failure

  @usableFromInline
  internal let parent: SwitchToLatestSubscription<P, Downstream>

  @usableFromInline
  internal let id: Int

  @usableFromInline
  internal let combineIdentifier = CombineIdentifier()

  @inlinable
  internal init(parent: SwitchToLatestSubscription<P, Downstream>, id: Int) {
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
