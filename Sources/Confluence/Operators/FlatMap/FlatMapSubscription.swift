import Synchronization

/// The storage and driver of `flatMap`: subscribes upstream and to each inner publisher,
/// takes the lock to consult ``FlatMapState``, and performs what it says with the lock
/// released. Shown as `FlatMap` by `print`.
///
/// Subscribed upstream as a ``FlatMapEntry``, and to each inner publisher through a
/// ``FlatMapInnerSubscriber`` that names only the value and failure types (see
/// ``FlatMapInnerEntry`` why): neither the upstream nor an inner publisher sees a type that
/// names the downstream, so a pipeline of nested `flatMap`s or `merge`s hands every level's
/// upstream the same small types and every level runs specialised code.
@usableFromInline
internal final class FlatMapSubscription<NewPublisher: Publisher, Upstream: Publisher, Downstream: Subscriber>:
  FlatMapStateHolder<
    Upstream.Output, NewPublisher.Output, Upstream.Failure, FlatMapState<Upstream.Output, NewPublisher, Downstream>
  >,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where
  NewPublisher.Failure == Upstream.Failure, Downstream.Input == NewPublisher.Output,
  Downstream.Failure == Upstream.Failure
{
  @usableFromInline internal typealias State = FlatMapState<Upstream.Output, NewPublisher, Downstream>

  @usableFromInline
  internal let lock: BiasedLock

  // `state` (in ``FlatMapStateHolder``) is guarded by `lock`: only accessed inside
  // `lock.withLock`, through ``withState(_:)`` and ``withStateAsOwner(_:)``.

  /// The merge publishers only: who delivers downstream. `0`: nobody. Bit 0 (``owned``): a
  /// thread owns delivery (`state.isDelivering`, which every critical section reads from
  /// here). Bit 1 (``recheck``): the owner must look at the state under the lock before it
  /// lets go, because another critical section ran meanwhile or something already waited
  /// when it took delivery. With ``recheck`` clear, the owner lets go with one
  /// compare-and-exchange instead of a lock round trip: the common case of a value handed
  /// over at once with nothing else going on.
  ///
  /// `flatMap` itself never touches the word: its owner lets go under the lock (see
  /// ``letGoOfDelivery(additionalDemand:)``) and no value takes delivery without it, so
  /// `state.isDelivering`, read and written under the lock, is all it needs. (It used to
  /// mirror the flag here, and a section that found an owner set ``recheck`` with a
  /// compare-and-exchange that nothing of `flatMap`'s ever read: one atomic
  /// read-modify-write per request that arrives during a delivery, as every request of a
  /// nested `flatMap(maxPublishers: .max(1))` does.)
  ///
  /// Bit 2 (``laneOpen``), merge publishers only: an inner value may take delivery without
  /// the lock, by exchanging ``laneOpen`` alone for ``laneOpen`` and ``owned``, hand itself
  /// to downstream and let go again (``FlatMapState/mayOpenMergeLane()`` says when the state
  /// would do just that). Every critical section closes the lane on entry, so that none
  /// runs while a value takes it unseen, and opens it again on leaving if the state allows.
  ///
  /// Invariant (the protocol `FlatMapDeliveryModel` checks in every interleaving):
  /// - at most one thread owns delivery (holds ``owned``), and only the owner calls
  ///   downstream's `receive(_:)`;
  /// - the word changes only under the lock, except, for the merge publishers, (a) the owner
  ///   clearing ``owned`` by a compare-and-exchange that expects ``recheck`` clear, and (b) a
  ///   value taking the lane (``laneOpen`` → ``laneOpen`` | ``owned``) and the same value
  ///   clearing ``owned`` again;
  /// - every critical section that runs while a thread owns delivery leaves ``recheck`` set
  ///   (or closes the lane), so that what it left (a buffered value, demand, a completion) is
  ///   seen by the owner under the lock before it lets go: nothing is stranded;
  /// - ``laneOpen`` is set only by a critical section leaving the state where the next
  ///   value would be delivered at once with nothing left to do.
  /// With `CONFLUENCE_LOCKED_FAST_PATHS` the owner always lets go under the lock and the lane
  /// never opens: the word is then only written under the lock.
  @usableFromInline
  internal let delivery = Atomic<UInt8>(0)

  @usableFromInline
  internal static var owned: UInt8 { 1 }

  @usableFromInline
  internal static var recheck: UInt8 { 2 }

  @usableFromInline
  internal static var laneOpen: UInt8 { 4 }

  /// The merge publishers' downstream, boxed and retained by hand, so that the thread that
  /// owns delivery hands a value over without retaining and releasing it (two atomic
  /// operations per value; `state.downstream` can only be read as a copy). `nil` for
  /// `flatMap`, and once the state let go of downstream with no thread delivering: the box
  /// is then released, outside the lock, by the critical section that sees it so (see
  /// ``retiredMergeTarget()``). Written only under the lock and only while no thread owns
  /// delivery; the owner reads it without the lock (the lock hand-over, or the acquiring
  /// exchange on ``delivery``, orders the accesses).
  @exclusivity(unchecked)
  @usableFromInline
  internal var mergeTarget: Unmanaged<FlatMapDownstreamBox<Downstream>>?

  @usableFromInline
  internal let maxPublishers: Subscribers.Demand

  /// Whether this serves `flatMap` itself (not the merge publishers), which follows Apple's
  /// `FlatMap`: downstream gets the subscription before upstream is subscribed, a failure
  /// does not cancel the publisher that failed, and an inner publisher's
  /// value delivered at once is answered by returning `.max(1)` from its `receive(_:)`.
  /// The merge publishers are the only other users, so this is the stored answer of
  /// ``servesMerge``, negated (one load; ``servesMerge`` itself asks `_isConcrete` first,
  /// which code the compiler did not specialise pays for on every call).
  @inlinable
  @inline(__always)
  internal var isFlatMap: Bool { !servesMergeStored }

  /// Whether this serves a merge publisher, known from the types (a constant in code
  /// specialised for them, so that `flatMap`'s code carries none of the merge publishers'
  /// lane and target handling): see ``MergeList``.
  @inlinable
  @inline(__always)
  internal var servesMerge: Bool {
    // Comparing the types in generic code the compiler did not specialise looks
    // `MergeList`'s metadata up in the runtime's cache on every critical section: such code
    // reads the answer stored in `init` instead.
    _isConcrete(Upstream.self) ? Self.isMergeType : servesMergeStored
  }

  /// ``servesMerge`` as a type-level fact.
  @inlinable
  internal static var isMergeType: Bool { Upstream.self == MergeList<NewPublisher>.self }

  /// ``isMergeType``, decided once in `init`.
  @usableFromInline
  internal let servesMergeStored: Bool

  /// Whether this serves `flatMap` and its inner publishers are `Just` (see
  /// ``receiveJust(_:)``): decided once here, so that code running unspecialised (behind
  /// type erasure) does not look up `Just`'s metadata for every upstream element.
  @usableFromInline
  internal let innerIsJust: Bool

  /// `flatMap`'s downstream, when it is a class and the code is not specialised: its
  /// reference, not retained, kept with the state's `downstream` (``keepDownstream(_:)``) and
  /// read only while a thread owns delivery, as ``FlatMapState/downstreamReference`` is
  /// (``addressOfDownstream``). Guarded by `lock`.
  ///
  /// Here, not in the state: the state's `downstream` sits at an offset that depends on the
  /// generic parameters, and code the compiler did not specialise looked the state's
  /// metadata up in the runtime's cache to read it (about 330 instructions a value). A
  /// field of the state's own, at a fixed offset, had the optimiser leave one more object
  /// on the heap in each pipeline built with `flatMap`, in specialised code
  /// (`flatMap-chain-build-5` 8,848 → 9,107 instructions).
  @exclusivity(unchecked)
  @usableFromInline
  internal var unspecialisedDownstreamAddress: UnsafeRawPointer? = nil

  /// The merge publishers' subscription, which keeps `downstream` from the start. (Only
  /// they call it, so it serves merge without comparing the types, which unspecialised code
  /// would do by looking `MergeList`'s metadata up for every subscription.)
  @inlinable
  internal init(
    mergingInto downstream: Downstream, maxPublishers: Subscribers.Demand,
    transform: @escaping (Upstream.Output) -> NewPublisher
  ) {
    assert(Self.isMergeType, "only the merge publishers serve merge")
    lock = BiasedLock()
    self.maxPublishers = maxPublishers
    self.innerIsJust = false
    self.servesMergeStored = true
    self.mergeTarget = Unmanaged.passRetained(FlatMapDownstreamBox(downstream))
    let handlers = Self.handlers()
    super.init(
      state: State(downstream: downstream, transform: transform), receiveValue: handlers.receiveValue,
      innerValue: handlers.innerValue, receiveSubscription: handlers.receiveSubscription, event: handlers.event)
  }

  /// `flatMap`'s subscription, whose downstream it keeps once downstream has its subscription
  /// (``keepDownstream(_:)``). Without a `downstream` parameter: an empty `Downstream?`
  /// passed in, and kept in the state, looked `Optional<Downstream>` up twice where the code
  /// is not specialised (the caller, to make it; here, to move it into the state made here),
  /// and the state's type a third time. Now the holder makes the state in place
  /// (``FlatMapStateHolder/init(transform:receiveValue:innerValue:receiveSubscription:event:)``).
  @inlinable
  internal init(maxPublishers: Subscribers.Demand, transform: @escaping (Upstream.Output) -> NewPublisher) {
    assert(!Self.isMergeType, "the merge publishers keep their downstream from the start")
    lock = BiasedLock()
    self.maxPublishers = maxPublishers
    self.innerIsJust = KnownJust.matches(NewPublisher.self)
    self.servesMergeStored = false
    self.mergeTarget = nil
    let handlers = Self.handlers()
    super.init(
      transform: transform, receiveValue: handlers.receiveValue, innerValue: handlers.innerValue,
      receiveSubscription: handlers.receiveSubscription, event: handlers.event)
  }

  /// The handlers an entry is made with. They cast the entry to this class and run its code,
  /// specialised where the types are known. Where the initialiser runs unspecialised, the
  /// handlers of the rare events capture nothing and call the methods this class overrides
  /// instead, and in an unoptimised build every handler does (see `FlatMapEntryRoot` why).
  /// The value handlers still capture where unspecialised: through an override, a value
  /// costs more.
  @inlinable
  @inline(__always)
  internal static func handlers() -> (
    receiveValue: ValueHandler, innerValue: InnerValueHandler, receiveSubscription: SubscriptionHandler,
    event: EventHandler
  ) {
    let unspecialised = BuildConfiguration.isUnoptimised || _canBeClass(Downstream.self) > 1
    #if CONFLUENCE_UNOPTIMISED
      let receiveValue: ValueHandler = { entry, input in entry.receiveValueOverridden(input) }
      let innerValue: InnerValueHandler = { entry, value, id in entry.innerValueOverridden(value, id: id) }
    #else
      let receiveValue: ValueHandler = { entry, input in
        unsafeDowncast(entry, to: FlatMapSubscription.self).upstreamValue(
          input.assumingMemoryBound(to: Upstream.Output.self).pointee)
      }
      let innerValue: InnerValueHandler = { entry, value, id in
        unsafeDowncast(entry, to: FlatMapSubscription.self).innerReceive(
          value.assumingMemoryBound(to: NewPublisher.Output.self).pointee, id: id)
      }
    #endif
    // `request(_:)` and `cancel()` arrive through `any Subscription`, which runs this
    // generic class's unspecialised code (the whole state machine and delivery loop, through
    // value witnesses): they go through `event` too, which runs ``requestSpecialized(_:)``
    // and ``cancelSpecialized()`` specialised.
    if unspecialised {
      return (
        receiveValue, innerValue,
        { entry, subscription, id in entry.receiveSubscriptionOverridden(subscription, id: id) },
        { entry, event, pointer, id in entry.eventOverridden(event, pointer, id: id) }
      )
    }
    return (
      receiveValue, innerValue,
      { entry, subscription, id in
        unsafeDowncast(entry, to: FlatMapSubscription.self).receive(subscription: subscription, id: id)
      },
      { entry, event, pointer, id in
        unsafeDowncast(entry, to: FlatMapSubscription.self).handle(event, pointer, id: id)
      }
    )
  }

  /// Upstream's subscription (`id` ``FlatMapInnerID/upstream``) or an inner publisher's.
  @inlinable
  @inline(__always)
  internal func receive(subscription: Subscription, id: FlatMapInnerID) {
    if id.isUpstream {
      upstreamSubscription(subscription)
    } else {
      innerReceive(subscription: subscription, id: id)
    }
  }

  /// One of the rare events (see ``FlatMapEvent``).
  @inlinable
  @inline(__always)
  internal func handle(_ event: FlatMapEvent, _ pointer: UnsafeRawPointer?, id: FlatMapInnerID) {
    // The completions out of line: where this runs unspecialised, naming their type here
    // looked `Subscribers.Completion`'s metadata up on every request and cancel too.
    switch event {
    case .upstreamCompletion:
      upstreamCompletion(at: pointer.unsafelyUnwrapped)
    case .innerCompletion:
      innerCompletion(at: pointer.unsafelyUnwrapped, id: id)
    case .request:
      requestSpecialized(id.carriedDemand)
    case .cancel:
      cancelSpecialized()
    }
  }

  /// Upstream's completion, which `pointer` points to (borrowed).
  @inlinable
  @inline(never)
  internal func upstreamCompletion(at pointer: UnsafeRawPointer) {
    upstreamCompletion(pointer.assumingMemoryBound(to: Subscribers.Completion<Upstream.Failure>.self).pointee)
  }

  /// An inner publisher's completion, which `pointer` points to (borrowed).
  @inlinable
  @inline(never)
  internal func innerCompletion(at pointer: UnsafeRawPointer, id: FlatMapInnerID) {
    innerReceive(
      completion: pointer.assumingMemoryBound(to: Subscribers.Completion<Upstream.Failure>.self).pointee, id: id)
  }

  @inlinable
  internal override func receiveSubscriptionOverridden(_ subscription: Subscription, id: FlatMapInnerID) {
    receive(subscription: subscription, id: id)
  }

  @inlinable
  internal override func eventOverridden(_ event: FlatMapEvent, _ pointer: UnsafeRawPointer?, id: FlatMapInnerID) {
    handle(event, pointer, id: id)
  }

  #if CONFLUENCE_UNOPTIMISED
    @inlinable
    internal override func receiveValueOverridden(_ input: UnsafeRawPointer) -> Subscribers.Demand {
      upstreamValue(input.assumingMemoryBound(to: Upstream.Output.self).pointee)
    }

    @inlinable
    internal override func innerValueOverridden(_ value: UnsafeRawPointer, id: FlatMapInnerID) -> Subscribers.Demand {
      innerReceive(value.assumingMemoryBound(to: NewPublisher.Output.self).pointee, id: id)
    }
  #endif

  @inlinable
  deinit {
    mergeTarget?.release()
  }

  // MARK: Upstream events

  /// As Apple's `FlatMap`: hands this subscription downstream before upstream is subscribed
  /// to (called by ``Publishers/FlatMap``), so that events upstream sends early, even
  /// without a subscription, reach a subscribed downstream.
  ///
  /// Called on a subscription just made, which nothing else references yet: no other thread
  /// can read `state`, so it is written without the lock, and `downstream` is the caller's
  /// subscriber (alive for the call) rather than a copy of `state.downstream`, which a
  /// critical section and a retain would cost. `erased` is this subscription as the
  /// existential downstream takes (moved into it by the caller).
  @inlinable
  internal func subscribeDownstreamFirst(_ downstream: Downstream, _ erased: borrowing any Subscription) {
    state.downstreamHasSubscription = true
    downstream.receive(subscription: erased)
  }

  /// Keeps `downstream`, which ``Publishers/FlatMap/_receiveRelay(_:)`` held on to while
  /// ``subscribeDownstreamFirst(_:_:)`` ran, moved into the state; or lets it go, outside
  /// the lock, if downstream cancelled from there. Until now the state's `downstream` was
  /// `nil`: nothing could read it, since with upstream not yet subscribed nothing is
  /// delivered, and a request only adds demand.
  @inlinable
  internal func keepDownstream(_ downstream: consuming Downstream) {
    let acquired = lock.acquire()
    guard !state.isTerminated else {
      lock.release(acquired)
      _ = consume downstream
      return
    }
    if !_isConcrete(Downstream.self) && Downstream.self is AnyObject.Type {
      unspecialisedDownstreamAddress = unsafeBitCast(downstream, to: UnsafeRawPointer.self)
    }
    state.downstream = consume downstream
    lock.release(acquired)
  }

  @inlinable
  internal func upstreamSubscription(_ subscription: Subscription) {
    guard servesMerge else {
      // `flatMap` handed downstream the subscription first (``subscribeDownstreamFirst(_:_:)``),
      // so the section only accepts upstream: written out with the lock (all
      // ``withState(_:)`` is for `flatMap`), with no `Downstream?` to look up where the
      // code runs unspecialised.
      let acquired = lock.acquire()
      let accepted = state.upstream.accept(subscription)
      lock.release(acquired)
      guard accepted else {
        subscription.cancel()
        return
      }
      // Apple's FlatMap asks for `maxPublishers` whatever it is.
      subscription.request(maxPublishers)
      return
    }
    mergeUpstreamSubscription(subscription)
  }

  /// ``upstreamSubscription(_:)`` for the merge publishers. Out of line: where the code runs
  /// unspecialised, its temporaries (a `Downstream?`, the merge's retired box) were looked
  /// up on every `flatMap` subscription too.
  @inlinable
  @inline(never)
  internal func mergeUpstreamSubscription(_ subscription: Subscription) {
    // Two results, not a `(Bool, Downstream?)`: see ``FlatMapState/upstreamDidFinish(releasing:)``.
    var accepted = false
    let downstream = withState { () -> Downstream? in
      guard state.upstream.accept(subscription) else { return nil }
      accepted = true
      return state.downstreamHasSubscription ? nil : state.downstream
    }
    guard accepted else {
      subscription.cancel()
      return
    }
    downstream?.receive(subscription: self)
    if maxPublishers > 0 {
      subscription.request(maxPublishers)
    }
  }

  @inlinable
  internal func upstreamValue(_ input: Upstream.Output) -> Subscribers.Demand {
    // A `Just` (known from the type, so the check costs nothing once specialised) is not
    // subscribed to unless an introspection watches: see ``receiveJust(_:)``.
    if innerIsJust && !DebugHook.isActive {
      receiveJust(input)
      return .none
    }
    guard let (transform, id) = withState({ state.startInner() }) else { return .none }
    transform(input).subscribe(FlatMapInnerSubscriber<NewPublisher.Output, Upstream.Failure>(parent: self, id: id))
    return .none
  }

  /// `flatMap` into a `Just`: what subscribing to it would do, without its subscription.
  ///
  /// Subscribed to, a `Just` answers the inner subscriber's first request (`.max(1)`, or
  /// `.unlimited`) at once with its value and `.finished`, and nothing outside the pipeline
  /// can see its subscription. So this counts a live inner publisher (which holds back the
  /// completion of the whole, as a live `Just` would), hands the value over as an inner
  /// value from a publisher no longer current (it is never asked again, as a finished one),
  /// and then finishes that inner publisher (asking upstream for one more element with a
  /// finite `maxPublishers`): the same transitions of ``FlatMapState`` in the same order,
  /// without the `Just` subscription's allocation, lock and reference counting and two of
  /// the critical sections here (storing the inner subscription; letting go of delivery
  /// and finishing are one).
  @inlinable
  internal func receiveJust(_ input: Upstream.Output) {
    // Only `flatMap` gets here (``innerIsJust``), whose ``withState(_:)`` and
    // ``withStateAsOwner(_:)`` are the lock and nothing else: the sections are written out
    // with it, because in generic code the compiler did not specialise the closures handed
    // to those stay functions of their own, each looking the state's metadata up again on
    // every value.
    assert(!servesMerge, "receiveJust serves flatMap only")
    var acquired = lock.acquire()
    let transform = state.startInnerFinishingAtOnce()
    lock.release(acquired)
    guard let transform else { return }
    let value = KnownJust.output(of: transform(input))
    // A downstream that is a class is called through its reference, not retained (see
    // ``FlatMapState/downstreamReference``); any other is copied.
    acquired = lock.acquire()
    let taken = state.takesJustValue(value)
    var reference: UnsafeRawPointer?
    if taken && downstreamIsClass { reference = addressOfDownstream }
    let more: Subscribers.Demand
    if let reference {
      lock.release(acquired)
      if _isConcrete(Downstream.self) {
        more = Unmanaged<AnyObject>.fromOpaque(reference)._withUnsafeGuaranteedRef {
          _unsafeReferenceCast($0, to: Downstream.self).receive(value)
        }
      } else {
        more = Self.receiveInPlace(reference, value)
      }
    } else if let delivered = deliverToCopy(value, taken: taken, releasing: acquired) {
      more = delivered
    } else {
      innerFinishedAtOnce()  // buffered, or nothing more is delivered
      return
    }
    guard maxPublishers == .unlimited else {
      letGoOfJustReplenishing(additionalDemand: more)
      return
    }
    // Letting go of delivery and finishing the inner publisher, in one critical section,
    // unless that finishes everything (`false`: done in a section of its own, below).
    // `nil`: this thread keeps delivery.
    acquired = lock.acquire()
    state.isDelivering = true  // as ``withStateAsOwner(_:)`` sets it
    let finished: Bool? =
      state.didDeliver(additionalDemand: more) ? nil : state.innerDidFinishAtOnceUnlessLast()
    let retired = state.retiredDownstreamIsDue
    lock.release(acquired)
    if _slowPath(retired) { releaseRetiredDownstream() }
    switch finished {
    case true?:
      return
    case false?:
      innerFinishedAtOnce()
    case nil:
      drain()
      innerFinishedAtOnce()
    }
  }

  /// ``receiveJust(_:)`` with a finite `maxPublishers`, once the value was handed over:
  /// lets go of delivery, finishes the inner publisher and takes upstream's subscription out
  /// (to ask it for one more element outside the lock) in one critical section, unless that
  /// finishes everything or delivery goes on; those are done as separate steps, as with an
  /// unlimited `maxPublishers`. Out of line, so that the unlimited path carries none of it.
  @inlinable
  @inline(never)
  internal func letGoOfJustReplenishing(additionalDemand more: Subscribers.Demand) {
    var replenish = SubscriptionStatus.terminal
    // `nil`: this thread keeps delivery; `false`: the last inner publisher, completion due.
    let finished = withStateAsOwner { () -> Bool? in
      guard !state.didDeliver(additionalDemand: more) else { return nil }
      guard state.innerDidFinishAtOnceUnlessLast() else { return false }
      replenish = state.upstream  // `.terminal` once upstream finished or everything ended
      return true
    }
    switch finished {
    case true?:
      if case .subscribed(let upstream) = consume replenish {  // moved out, not copied
        upstream.request(.max(1))
      }
    case false?:
      innerFinishedAtOnce()
    case nil:
      drain()
      innerFinishedAtOnce()
    }
  }

  /// Whether `flatMap` calls downstream through its reference, not retained: a constant
  /// in specialised code; elsewhere (``receiveInPlace(_:_:)``), whether
  /// ``unspecialisedDownstreamAddress`` is set. Read under the lock.
  @inlinable
  @inline(__always)
  internal var downstreamIsClass: Bool {
    switch _canBeClass(Downstream.self) {
    case 0: false
    case 1: true
    default: unspecialisedDownstreamAddress != nil
    }
  }

  /// Downstream's reference, not retained (``FlatMapState/downstreamReference``), for a
  /// downstream that is a class, while the caller owns delivery under the lock.
  @inlinable
  @inline(__always)
  internal var addressOfDownstream: UnsafeRawPointer {
    _isConcrete(Downstream.self) ? state.downstreamReference : unspecialisedDownstreamAddress.unsafelyUnwrapped
  }

  /// Hands `value` to downstream through its reference, not retained (see
  /// ``FlatMapState/downstreamReference``), where the compiler did not specialise the code:
  /// the reference read in place as a `Downstream` and borrowed, where the cast to the
  /// class that specialised code makes (free there) is a dynamic cast on every value.
  ///
  /// Only there: in specialised code, the optimiser copied downstream read in place (a
  /// retain and a release per value), and retained it around the call when the cast was
  /// made in a method of its own, an instance's or a static one (`rx-flatMaps-pumping` 1,112
  /// → 1,287 instructions a value, `long-flatMap` 255.5 → 272), so the specialised form is
  /// written out where it is used.
  @inlinable
  @inline(__always)
  internal static func receiveInPlace(_ reference: UnsafeRawPointer, _ value: Downstream.Input) -> Subscribers.Demand {
    withUnsafePointer(to: reference) {
      UnsafeRawPointer($0).assumingMemoryBound(to: Downstream.self).pointee.receive(value)
    }
  }

  /// ``receiveJust(_:)`` and ``innerReceive(_:id:)`` for a downstream that is not a class, in
  /// the critical section `acquired` holds, which this ends: if the value was `taken` for
  /// delivery, copies downstream and hands `value` to the copy (`nil` if not taken, or if
  /// there is no downstream). Out of line, so that code the compiler did not specialise
  /// names no `Downstream?` on the class path: the optional's metadata was looked up in the
  /// runtime's cache on every value, even where downstream is a class
  /// (`generic-zip-flatMap-unspecialised`).
  @inlinable
  @inline(never)
  internal func deliverToCopy(_ value: Downstream.Input, taken: Bool, releasing acquired: Lock.Hold)
    -> Subscribers.Demand?
  {
    var copy: Downstream?
    if taken { copy = state.downstream }
    lock.release(acquired)
    return copy?.receive(value)
  }

  /// A cancel retired downstream during a delivery that has now ended (see
  /// ``FlatMapState/retiredDownstream``): released here, outside the lock. Out of line: rare.
  @inlinable
  @inline(never)
  internal func releaseRetiredDownstream() {
    let acquired = lock.acquire()
    let retired = state.takeRetiredDownstream()
    lock.release(acquired)
    _ = consume retired
  }

  /// The inner publisher of ``receiveJust(_:)`` finished. Out of line: its temporaries
  /// would otherwise be looked up on every value in generic code the compiler did not
  /// specialise.
  @inlinable
  @inline(never)
  internal func innerFinishedAtOnce() {
    guard maxPublishers == .unlimited else {
      var replenish = SubscriptionStatus.terminal
      let finish = withState { state.innerDidFinishAtOnceReplenishing(replenish: &replenish) }
      if case .subscribed(let upstream) = consume replenish {  // moved out, not copied
        upstream.request(.max(1))
      }
      finish?.receive(completion: .finished)
      return
    }
    withState { state.innerDidFinishAtOnce() }?.receive(completion: .finished)
  }

  @inlinable
  internal func upstreamCompletion(_ completion: Subscribers.Completion<Upstream.Failure>) {
    switch completion {
    case .finished:
      var released = SubscriptionStatus.terminal
      let next = withState { state.upstreamDidFinish(releasing: &released) }
      _ = consume released  // the upstream subscription is released outside the lock
      perform(consume next)
    case .failure(let error):
      fail(error, source: nil)
    }
  }

  /// Upstream (`source` `nil`) or an inner publisher failed: every other subscription is
  /// cancelled before downstream hears of the failure. `flatMap`, as Apple's, does not
  /// cancel the publisher that failed (it is only released); the merge publishers do.
  @inlinable
  internal func fail(_ error: Upstream.Failure, source: FlatMapInnerID?) {
    // The subscriptions go out through variables, not in a tuple with `State.Next`: see
    // ``FlatMapState/upstreamDidFinish(releasing:)``.
    var released = SubscriptionStatus.terminal
    var upstreamReleased = SubscriptionStatus.terminal
    let next = withState { () -> State.Next in
      if isFlatMap && !state.isTerminated {
        if let source {
          if state.isCurrent(source) { released = state.subscriptions[source.slot].take() }
          // As Apple's: when an inner publisher fails, upstream too is released without a
          // cancel (the other inners are cancelled).
          upstreamReleased = state.upstream.take()
        } else {
          released = state.upstream.take()
        }
      }
      return state.fail(error)
    }
    _ = consume released  // released outside the lock, not cancelled
    _ = consume upstreamReleased
    perform(consume next)
  }

  // MARK: Inner events

  @inlinable
  internal func innerReceive(subscription: Subscription, id: FlatMapInnerID) {
    if let demand = withState({ state.innerSubscribed(id, copy subscription) }) {
      subscription.request(demand)
    } else {
      subscription.cancel()
    }
  }

  /// An inner value: returns the demand for the inner publisher's `receive(_:)` to return.
  @inlinable
  @inline(__always)
  internal func innerReceive(_ value: Downstream.Input, id: FlatMapInnerID) -> Subscribers.Demand {
    guard isFlatMap else {
      // The lane (see `delivery`): the state would deliver this value at once and then have
      // nothing more to do; no critical section runs meanwhile unseen. (Never open with
      // `CONFLUENCE_LOCKED_FAST_PATHS`: see ``mayOpenLane()``.)
      if delivery.compareExchange(
        expected: Self.laneOpen, desired: Self.laneOpen | Self.owned, ordering: .acquiring
      ).exchanged {
        let more = sendToMergeTarget(value)
        if more == .none,
          delivery.compareExchange(
            expected: Self.laneOpen | Self.owned, desired: Self.laneOpen, ordering: .releasing
          ).exchanged
        {
          return .none
        }
        if letGoOfDelivery(additionalDemand: more) {
          drain()
        }
        return .none
      }
      guard let askAgain = withState({ state.mergeValue(value, from: id) }) else { return .none }
      guard askAgain else {
        // Merge's common path (unlimited demand, inners asked for everything): no inner
        // subscription to carry out of the lock, so no copy and destroy of its status.
        if letGoOfDelivery(additionalDemand: sendToMergeTarget(value)) {
          drain()
        }
        return .none
      }
      // Asked one value at a time: fetch the inner's subscription to ask it again. It is
      // still this inner's: the slot is freed only by the inner's own completion (serialised
      // with this value) or by the end of everything (which leaves it terminal, and then
      // nothing is asked).
      let subscription = withState { state.subscription(askingAgain: id) }
      let more = sendToMergeTarget(value)
      subscription.request(.max(1))
      if letGoOfDelivery(additionalDemand: more) {
        drain()
      }
      return .none
    }
    // A section written out with the lock (all ``withState(_:)`` is for `flatMap`), whose
    // answer names no tuple type (see `FlatMapValueHandOver`). A downstream that is a class
    // is called through its reference, not retained (see
    // ``FlatMapState/downstreamReference``); any other is copied.
    let acquired = lock.acquire()
    let handOver = state.takesInnerValue(value, from: id)
    let taken = handOver != .held
    var reference: UnsafeRawPointer?
    if taken && downstreamIsClass { reference = addressOfDownstream }
    let more: Subscribers.Demand
    if let reference {
      lock.release(acquired)
      if _isConcrete(Downstream.self) {
        more = Unmanaged<AnyObject>.fromOpaque(reference)._withUnsafeGuaranteedRef {
          _unsafeReferenceCast($0, to: Downstream.self).receive(value)
        }
      } else {
        more = Self.receiveInPlace(reference, value)
      }
    } else if let delivered = deliverToCopy(value, taken: taken, releasing: acquired) {
      more = delivered
    } else {
      return .none
    }
    if letGoOfDelivery(additionalDemand: more) {
      drain()
    }
    // Apple's FlatMap answers a value delivered at once with `.max(1)` in the return.
    if case .deliverAndAskAgain = handOver { return .max(1) }
    return .none
  }

  @inlinable
  internal func innerReceive(completion: Subscribers.Completion<Upstream.Failure>, id: FlatMapInnerID) {
    switch completion {
    case .finished where maxPublishers == .unlimited:
      var released = SubscriptionStatus.terminal
      let finish = withState { state.innerDidFinish(id, releasing: &released) }
      _ = consume released  // the inner subscription is released outside the lock
      finish?.receive(completion: .finished)
    case .finished:
      var released = SubscriptionStatus.terminal
      var replenish = SubscriptionStatus.terminal
      let finish = withState { state.innerDidFinishReplenishing(id, releasing: &released, replenish: &replenish) }
      _ = consume released
      if case .subscribed(let upstream) = consume replenish {  // moved out, not copied
        upstream.request(.max(1))
      }
      finish?.receive(completion: .finished)
    case .failure(let error):
      fail(error, source: id)
    }
  }

  // MARK: Downstream requests

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    event(self, .request, nil, .carrying(demand))
  }

  @inlinable
  internal func cancel() {
    event(self, .cancel, nil, .upstream)
  }

  @inlinable
  internal func requestSpecialized(_ demand: Subscribers.Demand) {
    if isFlatMap {
      // The common request only adds demand: one section written out with the lock (all
      // ``withState(_:)`` is for `flatMap`), answering with a `Bool`, not a `State.Next`.
      let acquired = lock.acquire()
      let quiet = state.addDemandIfQuiet(demand)
      lock.release(acquired)
      if quiet { return }
    }
    requestInSection(demand)
  }

  /// ``requestSpecialized(_:)`` when the request may set something off. Out of line: its
  /// temporaries (the `State.Next`, the merge publishers' retired box) would otherwise be
  /// looked up on every request in generic code the compiler did not specialise.
  @inlinable
  @inline(never)
  internal func requestInSection(_ demand: Subscribers.Demand) {
    guard isFlatMap && demand == .unlimited else {
      perform(withState { state.request(demand) })
      return
    }
    // The inners to upgrade come out through a captured variable, not in a tuple with the
    // `Next`: taking the tuple apart copied the `Next` through its value witnesses (about
    // 300 instructions, on the request that starts every pipeline of `flatMap`s).
    var upgraded: [Subscription] = []
    let next = withState { () -> State.Next in
      let wasUnlimited = state.demand == .unlimited
      let next = state.request(demand)
      // (Checked here first: with no inner live, as on the request that starts a pipeline,
      // the call and the empty array it returns cost more than the check.)
      if !wasUnlimited && state.liveInners > 0 { upgraded = state.upgradeInnersToUnlimited() }
      return next
    }
    for inner in upgraded { inner.request(.unlimited) }
    perform(consume next)
  }

  @inlinable
  internal func cancelSpecialized() {
    // With no inner publisher live (the common case) only upstream is left to cancel: it
    // comes out alone. Otherwise the section changes nothing, and a second one takes all of
    // them, inners first (as if the cancel had come a moment later).
    guard !servesMerge else {
      // The merge publishers' inners live until they finish: always the full cancel.
      withState { state.cancel() }.cancel()
      return
    }
    var innersLive = false
    let upstream = withState { () -> SubscriptionStatus in
      guard state.liveInners == 0 else {
        innersLive = true
        return .terminal
      }
      state.retireDownstreamIfDelivering()
      return state.cancelWithNoInnerLive()
    }
    guard innersLive else {
      (consume upstream).cancelSubscription()
      return
    }
    withState { () -> SubscriptionsToCancel in
      state.retireDownstreamIfDelivering()
      return state.cancel()
    }.cancel()
  }

  // MARK: Critical sections and delivery ownership

  /// Runs `body` with the lock held, `state.isDelivering` read from ``delivery``. If a thread
  /// owns delivery, it is told to look again before letting go (this section may have left
  /// it work: a buffered value, demand, a failure, a completion). If this section takes
  /// delivery, ``delivery`` says so, with ``recheck`` already set when something waits.
  ///
  /// `flatMap` and the merge publishers run it separately (``servesMerge``): only the
  /// merge publishers have a lane to close and reopen and a ``mergeTarget`` to release, and
  /// `flatMap { Just($0) }` runs three of these per inner publisher.
  @inlinable
  @inline(__always)
  internal func withState<Result>(_ body: () -> Result) -> Result {
    guard servesMerge else {
      return lock.withLock { criticalSection(body, hasLane: false) }
    }
    // Out of line where the code is not specialised: the merge publishers' temporaries (the
    // retired box) would otherwise be looked up on entry to every critical section of
    // `flatMap` there too.
    guard _isConcrete(Upstream.self) else { return withMergeStateOutOfLine(body) }
    return withMergeState(body)
  }

  /// ``withMergeState(_:)``, not inlined (see ``withState(_:)``).
  @inlinable
  @inline(never)
  internal func withMergeStateOutOfLine<Result>(_ body: () -> Result) -> Result {
    withMergeState(body)
  }

  /// ``withState(_:)`` for the merge publishers.
  @inlinable
  @inline(__always)
  internal func withMergeState<Result>(_ body: () -> Result) -> Result {
    withLockReleasingRetiredMergeTarget { criticalSection(body, hasLane: true) }
  }

  /// Runs `section` under the lock, then releases the merge target a cancel retired
  /// meanwhile, if any, outside it (the merge publishers' sections).
  @inlinable
  @inline(__always)
  internal func withLockReleasingRetiredMergeTarget<Result>(_ section: () -> Result) -> Result {
    // Two results, not a `(Result, Unmanaged<…>?)`: code the compiler did not specialise
    // asked for `Result`'s metadata in its abstract state to make that tuple, then sized
    // `Result` from it (see `Scripts/check-abstract-metadata`).
    var retired: Unmanaged<FlatMapDownstreamBox<Downstream>>?
    let result = lock.withLock { () -> Result in
      let result = section()
      retired = retiredMergeTarget()
      return result
    }
    retired?.release()
    return result
  }

  /// ``withState(_:)`` under the lock. `hasLane` is a constant at each call site.
  @inlinable
  @inline(__always)
  internal func criticalSection<Result>(_ body: () -> Result, hasLane: Bool) -> Result {
    // `flatMap`: `state.isDelivering` is the whole of it (see ``delivery``).
    guard hasLane else { return body() }
    var word = delivery.load(ordering: .acquiring)
    while word != 0 {
      // Close the lane; tell the owner, if any, to look again. The owner may let go
      // meanwhile, and a value may take the lane: exchange until the word holds still.
      let desired = (word & ~Self.laneOpen) | (word & Self.owned != 0 ? Self.recheck : 0)
      if desired == word { break }
      let (exchanged, original) = delivery.compareExchange(
        expected: word, desired: desired, ordering: .acquiringAndReleasing)
      word = exchanged ? desired : original
      if exchanged { break }
    }
    state.isDelivering = word & Self.owned != 0
    let result = body()
    if word & Self.owned == 0 {
      // Nobody delivered when this section began: the word is 0 and stays so (the lane is
      // closed, and taking delivery otherwise needs the lock) until stored here.
      let lane = mayOpenLane() ? Self.laneOpen : 0
      if state.isDelivering {
        delivery.store(
          Self.owned | lane | (state.canLetGoQuietly() ? 0 : Self.recheck), ordering: .releasing)
      } else if lane != 0 {
        delivery.store(lane, ordering: .releasing)
      }
    }
    return result
  }

  /// Under the lock: whether the merge publishers' lane may be opened (see ``delivery``).
  @inlinable
  @inline(__always)
  internal func mayOpenLane() -> Bool {
    #if CONFLUENCE_LOCKED_FAST_PATHS
      // The locked equivalent: the lane never opens, every value takes the lock.
      return false
    #else
      return state.mayOpenMergeLane()
    #endif
  }

  /// Under the lock: takes ``mergeTarget`` out, to be released outside the lock, once the
  /// state let go of downstream and no thread delivers (the owner may still be calling it).
  @inlinable
  @inline(__always)
  internal func retiredMergeTarget() -> Unmanaged<FlatMapDownstreamBox<Downstream>>? {
    guard let target = mergeTarget, state.isTerminated, !state.isDelivering else { return nil }
    mergeTarget = nil
    return target
  }

  /// Hands `value` to the merge publishers' downstream (this thread owns delivery).
  @inlinable
  @inline(__always)
  internal func sendToMergeTarget(_ value: Downstream.Input) -> Subscribers.Demand {
    mergeTarget.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.subscriber.receive(value) }
  }

  /// Runs `body` with the lock held, on the thread that owns delivery (looking at the state
  /// again, so ``recheck`` is cleared), and publishes whether it still does. Nobody else
  /// changes the word meanwhile (taking the merge publishers' lane needs it without
  /// ``owned``).
  @inlinable
  @inline(__always)
  internal func withStateAsOwner<Result>(_ body: () -> Result) -> Result {
    guard servesMerge else {
      // A delivery may end here: downstream, if a cancel retired it meanwhile, is released
      // after the section.
      var retired = false
      let result = lock.withLock { () -> Result in
        let result = ownerSection(body, hasLane: false)
        retired = state.retiredDownstreamIsDue
        return result
      }
      if _slowPath(retired) { releaseRetiredDownstream() }
      return result
    }
    guard _isConcrete(Upstream.self) else { return withMergeStateAsOwnerOutOfLine(body) }
    return withMergeStateAsOwner(body)
  }

  /// ``withMergeStateAsOwner(_:)``, not inlined (see ``withState(_:)``).
  @inlinable
  @inline(never)
  internal func withMergeStateAsOwnerOutOfLine<Result>(_ body: () -> Result) -> Result {
    withMergeStateAsOwner(body)
  }

  /// ``withStateAsOwner(_:)`` for the merge publishers.
  @inlinable
  @inline(__always)
  internal func withMergeStateAsOwner<Result>(_ body: () -> Result) -> Result {
    withLockReleasingRetiredMergeTarget { ownerSection(body, hasLane: true) }
  }

  /// ``withStateAsOwner(_:)`` under the lock. `hasLane` is a constant at each call site.
  @inlinable
  @inline(__always)
  internal func ownerSection<Result>(_ body: () -> Result, hasLane: Bool) -> Result {
    state.isDelivering = true
    // `flatMap`: `state.isDelivering` is the whole of it (see ``delivery``).
    guard hasLane else { return body() }
    let result = body()
    let lane = mayOpenLane() ? Self.laneOpen : 0
    let word: UInt8 =
      state.isDelivering ? Self.owned | lane | (state.canLetGoQuietly() ? 0 : Self.recheck) : lane
    delivery.store(word, ordering: .releasing)
    return result
  }

  /// The owner of delivery handed a value over; `more` is what downstream returned.
  /// Returns `false` after letting go of delivery, or `true` while keeping it, when there is
  /// more to do (the caller then calls ``drain()``), as
  /// ``FlatMapState/didDeliver(additionalDemand:)``. Without demand to add and with nothing
  /// waiting (``recheck`` clear), it lets go without the lock.
  @inlinable
  @inline(__always)
  internal func letGoOfDelivery(additionalDemand more: Subscribers.Demand) -> Bool {
    #if CONFLUENCE_LOCKED_FAST_PATHS
      // The locked equivalent: every owner lets go under the lock.
      return withStateAsOwner { state.didDeliver(additionalDemand: more) }
    #else
      // `flatMap` itself lets go under the lock: measured, the lock-free exchange saved it
      // nothing (instructions per inner publisher the same with and without it), so only the
      // merge publishers, whose lane it serves, keep it.
      guard servesMerge else { return withStateAsOwner { state.didDeliver(additionalDemand: more) } }
      return letGoOfMergeDeliveryQuietly(additionalDemand: more)
    #endif
  }

  /// ``letGoOfDelivery(additionalDemand:)`` for the merge publishers, with its lock-free
  /// path (see ``delivery``).
  @inlinable
  @inline(__always)
  internal func letGoOfMergeDeliveryQuietly(additionalDemand more: Subscribers.Demand) -> Bool {
    if more == .none {
      let word = delivery.load(ordering: .relaxed)
      if word & Self.recheck == 0,
        delivery.compareExchange(expected: word, desired: word & ~Self.owned, ordering: .acquiringAndReleasing)
          .exchanged
      {
        return false
      }
    }
    return withStateAsOwner { state.didDeliver(additionalDemand: more) }
  }

  // MARK: Acting on the state machine

  /// Hands `value` to `downstream` (this thread owns delivery), asks `askAgain` for one
  /// more value, then releases delivery, or goes on with what waited meanwhile.
  @inlinable
  internal func deliver(
    _ value: consuming Downstream.Input, to downstream: borrowing Downstream, askAgain: borrowing SubscriptionStatus
  ) {
    let more = downstream.receive(value)
    askAgain.request(.max(1))
    if letGoOfDelivery(additionalDemand: more) {
      drain()
    }
  }

  /// Delivery is still ours after ``FlatMapState/didDeliver(additionalDemand:)`` returned
  /// `true`: delivers what waited, in a loop (a long buffer must not deepen the stack),
  /// and finally whatever else the state machine says.
  @inlinable
  internal func drain() {
    while true {
      let next = withStateAsOwner { state.resumeDelivery() }
      switch consume next {
      case .deliver(let downstream, let value, let askAgain):
        let more = downstream.receive(value)
        askAgain.request(.max(1))
        guard letGoOfDelivery(additionalDemand: more) else { return }
      case let next:
        perform(consume next)
        return
      }
    }
  }

  /// Carries out `next` (delivering until the state machine has nothing more to deliver).
  @inlinable
  internal func perform(_ next: consuming State.Next) {
    switch consume next {
    case .idle:
      return
    case .cancel(let subscriptions):
      subscriptions.cancel()
    case .complete(let downstream, let completion, let subscriptions):
      subscriptions.cancel()
      downstream.receive(completion: completion)
    case .deliver(let downstream, let value, let askAgain):
      deliver(value, to: downstream, askAgain: askAgain)
    }
  }

  /// What `print` shows: `FlatMap`, or `Merge` when it serves the merge publishers.
  @usableFromInline
  internal var description: String { isFlatMap ? "FlatMap" : "Merge" }

  @usableFromInline
  /// As Apple's: nothing shown (the inner subscribers show their parent).
  internal var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}

/// Holds the merge publishers' downstream for ``FlatMapSubscription/mergeTarget``: a class,
/// so that a reference to it can be kept unmanaged and the subscriber (a `let`) reached
/// through it without a retain.
@usableFromInline
internal final class FlatMapDownstreamBox<Downstream: Subscriber> {
  @usableFromInline
  internal let subscriber: Downstream

  @inlinable
  internal init(_ subscriber: Downstream) {
    self.subscriber = subscriber
  }
}

/// What the inner publishers of `flatMap` and the merge publishers see of their subscription:
/// ``FlatMapSubscription`` through a base class generic over the inner publishers' value
/// and failure types only.
///
/// The subscription's type names the downstream subscriber's type (and `flatMap`'s upstream
/// publisher, the merge publishers' upstreams); if an inner publisher saw it, every `merge`
/// nested in another would hand its upstreams a subscriber type that contains the next
/// one's, and the optimizer, which refuses to specialise a generic function again for a type
/// that contains the one it was specialised for a step before (its guard against endless
/// specialisation), would leave all but the last two levels unspecialised: every value
/// would look generic metadata up at run time. Through this class every level hands its
/// inner publishers the same small type, and each value enters the subscription's
/// specialised code through one indirect call.
///
/// It stores nothing: the handlers are ``FlatMapEntryRoot``'s (see there why).
@usableFromInline
internal class FlatMapInnerEntry<InnerOutput, Failure: Error>: FlatMapEntryRoot {}

/// What `flatMap`'s upstream (and the merge publishers' list of upstreams) sees of the
/// subscription: a subscriber generic over the value and failure types only, for the reason
/// ``FlatMapInnerEntry`` gives (with `flatMap`'s upstream in place of the inner publishers).
@usableFromInline
internal class FlatMapEntry<UpstreamOutput, InnerOutput, UpstreamFailure: Error>:
  FlatMapInnerEntry<InnerOutput, UpstreamFailure>, Subscriber
{
  @usableFromInline internal typealias Input = UpstreamOutput
  @usableFromInline internal typealias Failure = UpstreamFailure

  @inlinable
  internal final func receive(subscription: Subscription) {
    receiveSubscription(self, subscription, .upstream)
  }

  @inlinable
  internal final func receive(_ input: UpstreamOutput) -> Subscribers.Demand {
    // Unprotected: the handler reads exactly one `UpstreamOutput` through the pointer.
    withReadPointer(to: input) { receiveValue(self, $0) }
  }

  @inlinable
  internal final func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    withUnsafePointer(to: completion) { event(self, .upstreamCompletion, $0, .upstream) }
  }
}

/// Subscribes to one inner publisher on behalf of ``FlatMapSubscription``.
@usableFromInline
@_eagerMove
internal struct FlatMapInnerSubscriber<Input, Failure: Error>:
  Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  internal let parent: FlatMapInnerEntry<Input, Failure>

  @usableFromInline
  internal let id: FlatMapInnerID

  @usableFromInline
  internal let combineIdentifier = CombineIdentifier()

  @inlinable
  internal init(parent: FlatMapInnerEntry<Input, Failure>, id: FlatMapInnerID) {
    self.parent = parent
    self.id = id
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    parent.receiveSubscription(parent, subscription, id)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    // Unprotected: the handler reads exactly one `Input` through the pointer.
    withReadPointer(to: input) { parent.innerValue(parent, $0, id) }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    withUnsafePointer(to: completion) { parent.event(parent, .innerCompletion, $0, id) }
  }

  @usableFromInline
  internal var description: String { "FlatMap" }

  /// As Apple's: the identity of the operator's own subscription.
  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: ["parentSubscription": CombineIdentifier(parent)]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
