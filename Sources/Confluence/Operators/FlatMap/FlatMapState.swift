/// Identifies one inner publisher of a `flatMap`: its slot in ``FlatMapState``'s table and
/// the slot's generation when the inner publisher started (a slot is reused once its inner
/// publisher finished; late events from the old one are then ignored).
@usableFromInline
@frozen
internal struct FlatMapInnerID: Equatable {
  @usableFromInline internal let slot: Int
  @usableFromInline internal let generation: UInt

  @inlinable
  internal init(slot: Int, generation: UInt) {
    self.slot = slot
    self.generation = generation
  }

  /// An inner publisher that holds no slot: one that delivers and finishes within its
  /// subscribe (`Just`), never current (so never asked again, as a finished one).
  @inlinable
  internal static var finishedAtOnce: FlatMapInnerID { FlatMapInnerID(slot: .max, generation: 0) }

  /// Not an inner publisher: upstream, where a handler shared with the inner publishers
  /// (``FlatMapEntryRoot/receiveSubscription``) needs to say which.
  @inlinable
  internal static var upstream: FlatMapInnerID { FlatMapInnerID(slot: -1, generation: 0) }

  /// Whether this names upstream (``upstream``), not an inner publisher.
  @inlinable
  internal var isUpstream: Bool { slot < 0 }

  /// Not an inner publisher: a downstream request's `demand`, carried through the handler
  /// of the rare events (``FlatMapEvent/request``).
  @inlinable
  internal static func carrying(_ demand: Subscribers.Demand) -> FlatMapInnerID {
    FlatMapInnerID(slot: -1, generation: demand.rawValue)
  }

  /// The demand ``carrying(_:)`` put in.
  @inlinable
  internal var carriedDemand: Subscribers.Demand { Subscribers.Demand(exactRawValue: generation) }
}

/// One slot of ``FlatMapState``'s inner-publisher table: its bookkeeping, trivially
/// copyable (the subscription is kept in a parallel array, so that reading these flags
/// never copies an existential).
@usableFromInline
@frozen
internal struct FlatMapInnerSlot {
  /// Bumped each time the slot is freed, so late events from its old inner are ignored.
  @usableFromInline internal var generation: UInt = 0
  @usableFromInline internal var isLive = false
  /// Whether the inner publisher sent its subscription (kept in the parallel array).
  @usableFromInline internal var isSubscribed = false
  /// Whether the inner publisher was asked for `.unlimited` (else one value at a time).
  @usableFromInline internal var isUnlimited = false
  /// While the slot is free: the next free slot (`-1`: none), an intrusive free list.
  @usableFromInline internal var nextFree = -1

  @inlinable
  internal init(generation: UInt, isLive: Bool, nextFree: Int) {
    self.generation = generation
    self.isLive = isLive
    self.nextFree = nextFree
  }
}

/// The state machine of `flatMap`: who may deliver downstream, what waits for demand, and
/// when the whole thing completes. Pure bookkeeping: its transitions return what the
/// storage class (``FlatMapSubscription``) must do once it has released the lock.
///
/// Shaped for the common case of many short-lived inner publishers (`flatMap { Just($0) }`):
/// inner publishers live in a slot table reused through a free list (no hashing, no
/// allocation per inner publisher), and the per-value transitions return small results
/// rather than a ``Next`` to copy.
@usableFromInline
internal struct FlatMapState<Input, NewPublisher, Downstream: Subscriber>: FlatMapStateMaking {
  @usableFromInline
  internal typealias Value = Downstream.Input

  /// What the caller must do after leaving the lock (the less frequent transitions).
  @usableFromInline
  internal enum Next {
    /// Nothing.
    case idle
    /// Deliver `value` downstream (the caller now owns delivery); afterwards, ask `askAgain`
    /// for one more value if it holds a subscription.
    case deliver(Downstream, Value, askAgain: SubscriptionStatus)
    /// Send `completion` downstream and cancel `cancelling`.
    case complete(Downstream, Subscribers.Completion<Downstream.Failure>, cancelling: SubscriptionsToCancel)
    /// Cancel `cancelling` (the completion is left for the thread that is delivering).
    case cancel(SubscriptionsToCancel)
  }

  // The fields whose size does not depend on the generic parameters come first,
  // `downstream` last: the others then sit at fixed offsets, so that
  // generic code the compiler did not specialise reads them without looking this struct's
  // metadata up in the runtime's cache (about 300 instructions a critical section). For the
  // same reason the per-value paths test `isTerminated` and `hasPendingFailure`, not the
  // optionals (whose test in such code needs `Optional`'s metadata).

  @usableFromInline internal var transform: ((Input) -> NewPublisher)?
  @usableFromInline internal var upstream = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var upstreamFinished = false
  /// Whether downstream was handed the subscription before upstream was subscribed.
  @usableFromInline internal var downstreamHasSubscription = false
  @usableFromInline internal var demand = Subscribers.Demand.none
  /// The inner publishers, by slot; free slots form a list from `firstFree`.
  @usableFromInline internal var slots: [FlatMapInnerSlot]
  /// Each slot's subscription: `.subscribed` once its inner publisher sent it, else
  /// `.terminal`.
  @usableFromInline internal var subscriptions: [SubscriptionStatus]
  /// The first free slot, `-1` if none.
  @usableFromInline internal var firstFree = -1
  /// How many slots are live.
  @usableFromInline internal var liveInners = 0
  /// Values that arrived without demand, oldest first, with the inner that sent each.
  @usableFromInline internal var buffer: [(value: Value, inner: FlatMapInnerID)]
  @usableFromInline internal var bufferHead = 0
  /// `buffer.count`, kept apart: reading the array's count in generic code the compiler did
  /// not specialise looked its element type's metadata up in the runtime's cache.
  @usableFromInline internal var bufferCount = 0
  /// Whether some thread is delivering downstream right now. For the merge publishers the
  /// storage class sets it from its lock-free `delivery` word on entering each critical
  /// section; for `flatMap`, whose delivery changes hands under the lock only, it is kept
  /// here alone.
  @usableFromInline internal var isDelivering = false
  /// Whether an inner publisher was asked one value at a time, or one finished (freeing its
  /// slot, so that late values from it are stale): the merge publishers' lane (see
  /// ``mayOpenMergeLane()``) then stays closed for good.
  @usableFromInline internal var hasLimitedOrFreedInner = false
  /// Whether the subscription completed or was cancelled (`downstream` is then `nil`).
  @usableFromInline internal var isTerminated = false
  /// Whether `pendingFailure` holds a failure.
  @usableFromInline internal var hasPendingFailure = false
  /// Whether `retiredDownstream` holds the downstream a cancel let go of during a delivery.
  @usableFromInline internal var hasRetiredDownstream = false
  /// `flatMap`'s downstream, let go of by a cancel while a thread was delivering to it
  /// (``retireDownstreamIfDelivering()``), in a ``FlatMapDownstreamBox``: kept here until
  /// that thread lets go of delivery, because it calls downstream through a reference it did
  /// not retain (`FlatMapSubscription.receiveJust(_:)`). Released outside the lock by the
  /// section in which the delivery ends (``takeRetiredDownstream()``). Boxed (an allocation,
  /// on that rare path only) so that the field's type is not generic: the unspecialised
  /// `deinit` of every subscription destroyed a `Downstream?` here through its metadata.
  @usableFromInline internal var retiredDownstream: AnyObject?
  /// `nil` once the subscription completed or was cancelled (`isTerminated`), and for
  /// `flatMap` until downstream's `receive(subscription:)` has returned
  /// (`FlatMapSubscription.keepDownstream(_:)`), before upstream is subscribed to.
  ///
  /// Spelled `Optional<Downstream>`, not `Downstream?`, so that it has no implicit `nil` that
  /// the initialisers would then replace: replacing it destroys the `nil` first, through the
  /// metadata of `Optional<Downstream>`, a look-up where the code is not specialised.
  @usableFromInline internal var downstream: Optional<Downstream>
  /// A failure that arrived while another thread was delivering (`hasPendingFailure`).
  @usableFromInline internal var pendingFailure: PendingFailure<Downstream.Failure>?

  /// The merge publishers' state, which keeps `downstream` from the start.
  @inlinable
  @inline(__always)
  internal init(downstream: Downstream, transform: @escaping (Input) -> NewPublisher) {
    // `slots` and `subscriptions` are set here, not by default values: a default's
    // initialiser is a function of its own, which code specialised in a client module
    // called, with the state's generic arguments, on every subscription.
    self.slots = []
    self.subscriptions = []
    // Not `[]`, which unspecialised code made by looking up the element type (a tuple with
    // `Value`) and the array's in the runtime's cache, on every subscription.
    self.buffer = emptyArray()
    self.downstream = downstream
    self.transform = transform
  }

  /// `flatMap`'s state: no downstream until `FlatMapSubscription.keepDownstream(_:)`.
  @inlinable
  @inline(__always)
  internal init(transform: @escaping (Input) -> NewPublisher) {
    self.slots = []
    self.subscriptions = []
    self.buffer = emptyArray()
    self.downstream = nil
    self.transform = transform
  }

  @inlinable
  @inline(__always)
  internal var hasBufferedValues: Bool { bufferHead < bufferCount }

  /// Whether everything is done and nothing waits once `finishing` more inner publishers
  /// finish: upstream finished, no other inner publisher is live, nothing is buffered and
  /// nobody delivers. The completion is then due.
  @inlinable
  @inline(__always)
  internal func isCompletionDue(afterFinishing finishing: Int = 0) -> Bool {
    upstreamFinished && liveInners == finishing && !hasBufferedValues && !isDelivering
  }

  /// An inner value that may go downstream: takes delivery of it (and one of downstream's
  /// demand) and returns `true` if it can go now; else keeps it in the buffer until there is
  /// demand and returns `false`.
  @inlinable
  @inline(__always)
  internal mutating func takeDelivery(of value: Value, from id: FlatMapInnerID) -> Bool {
    if isDelivering || demand == .none || hasBufferedValues {
      bufferValue(value, from: id)
      return false
    }
    isDelivering = true
    demand -= 1
    return true
  }

  /// Keeps `value` until there is demand. Out of line (values wait only without demand):
  /// the tuple it forms would otherwise be a temporary of every per-value path, which
  /// unspecialised code looks up in the runtime's cache on each value.
  @inlinable
  @inline(never)
  internal mutating func bufferValue(_ value: Value, from id: FlatMapInnerID) {
    buffer.append((value, id))
    bufferCount += 1
  }

  /// Whether `id` names the inner publisher that currently holds its slot.
  @inlinable
  @inline(__always)
  internal func isCurrent(_ id: FlatMapInnerID) -> Bool {
    // The table is emptied when everything is released; late events may still arrive.
    id.slot < slots.count && slots[id.slot].generation == id.generation && slots[id.slot].isLive
  }

  // MARK: Upstream

  /// An upstream value arrived: returns the transform and the new inner's id.
  @inlinable
  @inline(__always)
  internal mutating func startInner() -> (transform: (Input) -> NewPublisher, id: FlatMapInnerID)? {
    guard !isTerminated, let transform else { return nil }
    let slot: Int
    let generation: UInt
    if firstFree >= 0 {
      slot = firstFree
      generation = slots[slot].generation
      firstFree = slots[slot].nextFree
      slots[slot] = FlatMapInnerSlot(generation: generation, isLive: true, nextFree: -1)
    } else {
      slot = slots.count
      generation = 0
      if slot == 0 {
        // Room for four at once: grown from empty one append at a time, the two tables
        // were reallocated at the first, second and third inner publisher (a `merge` of
        // four upstreams paid six allocations and copies where two do).
        slots.reserveCapacity(4)
        subscriptions.reserveCapacity(4)
      }
      slots.append(FlatMapInnerSlot(generation: 0, isLive: true, nextFree: -1))
      subscriptions.append(.terminal)
    }
    liveInners += 1
    return (transform, FlatMapInnerID(slot: slot, generation: generation))
  }

  /// An upstream value arrived whose inner publisher delivers and finishes within its
  /// subscribe (`Just`): counts it live, without a slot, until
  /// ``innerDidFinishAtOnce()``. Returns the transform.
  @inlinable
  @inline(__always)
  internal mutating func startInnerFinishingAtOnce() -> ((Input) -> NewPublisher)? {
    guard !isTerminated, let transform else { return nil }
    liveInners += 1
    return transform
  }

  /// Upstream finished: moves its subscription into `released` (to release outside the
  /// lock) and returns what to do next.
  ///
  /// The subscription goes out through `released`, not in a tuple with `Next`: a tuple of
  /// generic types is made by the runtime at run time in code the compiler did not
  /// specialise, and two threads making it at once crash (see ARCHITECTURE, "Speed"). The
  /// other transitions that hand a subscription back with something generic do the same.
  @inlinable
  internal mutating func upstreamDidFinish(releasing released: inout SubscriptionStatus) -> Next {
    guard !isTerminated else { return .idle }
    upstreamFinished = true
    released = upstream.take()
    return completeIfDone()
  }

  // MARK: Inner publishers

  /// An inner subscription arrived: returns what to request from it, or `nil` to cancel it.
  @inlinable
  ///
  /// Takes the caller's copy of the subscription (moved into the table), so that storing it
  /// costs one retain, not a copy and a destroy.
  internal mutating func innerSubscribed(
    _ id: FlatMapInnerID, _ subscription: consuming Subscription
  ) -> Subscribers.Demand? {
    guard !isTerminated, isCurrent(id), !slots[id.slot].isSubscribed else { return nil }
    subscriptions[id.slot] = .subscribed(holdSubscription(subscription))
    let unlimited = demand == .unlimited
    slots[id.slot] = FlatMapInnerSlot(generation: id.generation, isLive: true, nextFree: -1)
    slots[id.slot].isSubscribed = true
    slots[id.slot].isUnlimited = unlimited
    if !unlimited { hasLimitedOrFreedInner = true }
    return unlimited ? .unlimited : .max(1)
  }

  /// A value of an inner publisher arrived (`flatMap`): whether the caller is to deliver it
  /// now (it then owns delivery, and reads downstream: see ``downstreamReference``) and to
  /// ask the inner publisher for one more (it is current, subscribed and asked one value at
  /// a time); or ``FlatMapValueHandOver/held`` after buffering it until there is demand, or
  /// once everything ended. No subscription is copied out: `flatMap` answers through the
  /// inner's `receive(_:)`. As Apple's `flatMap`, a value from an inner publisher that
  /// already finished is still passed on while the whole is live (it is not asked again).
  @inlinable
  @inline(__always)
  internal mutating func takesInnerValue(_ value: Value, from id: FlatMapInnerID) -> FlatMapValueHandOver {
    if case .none = downstream { return .held }
    let isCurrent = isCurrent(id)
    guard takeDelivery(of: value, from: id) else { return .held }
    return isCurrent && slots[id.slot].isSubscribed && !slots[id.slot].isUnlimited ? .deliverAndAskAgain : .deliver
  }

  /// ``takesInnerValue(_:from:)`` for a `Just` that finished at once
  /// (`FlatMapSubscription.receiveJust(_:)`): whether `value` is to be delivered now (the
  /// caller then owns delivery and reads downstream, see ``downstreamReference``), or
  /// `false` after buffering it or once everything ended. The same transitions, with a
  /// result that names no generic type: in generic code the compiler did not specialise,
  /// each temporary of another type built from the generic parameters (a tuple, an optional
  /// tuple) was looked up in the runtime's cache on every value.
  @inlinable
  @inline(__always)
  internal mutating func takesJustValue(_ value: Value) -> Bool {
    !isTerminated && takeDelivery(of: value, from: FlatMapInnerID.finishedAtOnce)
  }

  /// Downstream's reference, not retained, for a downstream that is a class, in place of a
  /// copy (a retain and a release, two atomic instructions per value). Only while the
  /// caller owns delivery and `downstream` is set: till the caller lets go of delivery
  /// under the lock, nothing releases downstream, since a cancel meanwhile retires it
  /// (``retireDownstreamIfDelivering()``).
  @inlinable
  @inline(__always)
  internal var downstreamReference: UnsafeRawPointer {
    // `mutating`: read in place. An unoptimised build copies the whole state (an outlined copy
    // and destroy of every field) to call a getter that is not.
    // Its word read in place rather than through a copy of the reference: a copy that only
    // becomes a pointer left the optimiser a lifetime to end on every path, and one shape of
    // `FlatMapSubscription.receiveJust(_:)` made it crash over it (a leak found by its
    // lifetime verifier).
    mutating get {
      withUnsafeMutablePointer(to: &downstream) { UnsafeRawPointer($0).load(as: UnsafeRawPointer.self) }
    }
  }

  /// ``takesInnerValue(_:from:)`` for the merge publishers, which hand the
  /// value to downstream through `FlatMapSubscription.mergeTarget` rather than through a
  /// copy of `downstream` (a retain and a release, two atomic operations per value): `nil`
  /// after buffering the value (or dropping it if stale); else the caller owns delivery, and
  /// the result says whether the inner publisher is to be asked for one more value.
  @inlinable
  @inline(__always)
  internal mutating func mergeValue(_ value: Value, from id: FlatMapInnerID) -> Bool? {
    guard !isTerminated, isCurrent(id) else { return nil }
    guard takeDelivery(of: value, from: id) else { return nil }
    return slots[id.slot].isSubscribed && !slots[id.slot].isUnlimited
  }

  /// The subscription of the current inner `id` (a copy), to ask for one more value after
  /// ``takesInnerValue(_:from:)`` said so; `.terminal` if everything ended
  /// meanwhile (the table is emptied then).
  /// (`mutating` only so that the storage class reaches it in place: a non-mutating method
  /// called on its stored `state` copied the whole struct.)
  @inlinable
  internal mutating func subscription(askingAgain id: FlatMapInnerID) -> SubscriptionStatus {
    isCurrent(id) ? subscriptions[id.slot] : .terminal
  }

  /// An inner publisher finished: frees its slot, moving its subscription into `released`
  /// (to release outside the lock), and returns the downstream to finish, if everything is
  /// done. With a finite `maxPublishers`, see ``innerDidFinishReplenishing(_:releasing:replenish:)``.
  @inlinable
  internal mutating func innerDidFinish(
    _ id: FlatMapInnerID, releasing released: inout SubscriptionStatus
  ) -> Downstream? {
    guard !isTerminated, isCurrent(id) else { return nil }
    released = free(id.slot)
    guard isCompletionDue() else { return nil }
    let finishing = downstream
    _ = releaseAll()  // nothing live is left to cancel
    return finishing
  }

  /// ``innerDidFinish(_:releasing:)`` with a finite `maxPublishers`: also copies upstream's
  /// subscription into `replenish`, to request one more element from it outside the lock
  /// (`.terminal` once upstream finished or everything is done, which takes it).
  @inlinable
  internal mutating func innerDidFinishReplenishing(
    _ id: FlatMapInnerID, releasing released: inout SubscriptionStatus, replenish: inout SubscriptionStatus
  ) -> Downstream? {
    guard !isTerminated, isCurrent(id) else { return nil }
    let finish = innerDidFinish(id, releasing: &released)
    replenish = upstream
    return finish
  }

  /// The inner publisher counted by ``startInnerFinishingAtOnce()`` finished: returns the
  /// downstream to finish, if everything is done (as ``innerDidFinish(_:)``).
  @inlinable
  @inline(__always)
  internal mutating func innerDidFinishAtOnce() -> Downstream? {
    guard !isTerminated else { return nil }
    liveInners -= 1
    guard isCompletionDue() else { return nil }
    let finishing = downstream
    _ = releaseAll()  // nothing live is left to cancel
    return finishing
  }

  /// ``innerDidFinishAtOnce()`` unless that one would finish everything: returns `true`
  /// after counting the inner publisher finished (or when everything ended already), and
  /// `false`, changing nothing, when it is the last one and completion is due; the caller
  /// then finishes it in a critical section of its own with ``innerDidFinishAtOnce()``
  /// (no other thread can complete meanwhile: the inner publisher still counts as live).
  /// Its result names no generic type, so the per-value path forms no temporary that
  /// unspecialised code would look up.
  @inlinable
  @inline(__always)
  internal mutating func innerDidFinishAtOnceUnlessLast() -> Bool {
    guard !isTerminated else { return true }
    if isCompletionDue(afterFinishing: 1) { return false }
    liveInners -= 1
    return true
  }

  /// ``innerDidFinishAtOnce()`` with a finite `maxPublishers`: also copies upstream's
  /// subscription into `replenish`, to request one more element from it outside the lock.
  @inlinable
  internal mutating func innerDidFinishAtOnceReplenishing(replenish: inout SubscriptionStatus) -> Downstream? {
    guard !isTerminated else { return nil }
    let finish = innerDidFinishAtOnce()
    replenish = upstream
    return finish
  }

  /// Marks `slot` free and returns its subscription.
  @inlinable
  internal mutating func free(_ slot: Int) -> SubscriptionStatus {
    let released = subscriptions[slot].take()
    slots[slot] = FlatMapInnerSlot(generation: slots[slot].generation &+ 1, isLive: false, nextFree: firstFree)
    firstFree = slot
    liveInners -= 1
    hasLimitedOrFreedInner = true
    return released
  }

  // MARK: Failure and cancel

  /// Upstream or an inner publisher failed: everything else is cancelled. The first
  /// failure wins: one that arrives while an earlier one waits for a delivery on another
  /// thread to return (an inner's failure releases upstream without cancelling it, so
  /// upstream may still fail) goes nowhere, as it would had no delivery been running.
  @inlinable
  internal mutating func fail(_ error: Downstream.Failure) -> Next {
    guard !isTerminated, !hasPendingFailure, let downstream else { return .idle }
    let cancelling = releaseAll()
    if isDelivering {
      pendingFailure = PendingFailure(error)
      hasPendingFailure = true
      self.downstream = downstream
      isTerminated = false
      return .cancel(cancelling)
    }
    return .complete(downstream, .failure(error), cancelling: cancelling)
  }

  /// `flatMap`'s cancel, while a thread may be delivering to downstream through a
  /// reference it did not retain: keeps downstream in ``retiredDownstream`` until that
  /// delivery ends, rather than releasing it (the following transition sets `downstream`
  /// to `nil`, which then releases nothing).
  @inlinable
  @inline(__always)
  internal mutating func retireDownstreamIfDelivering() {
    guard isDelivering, !isTerminated else { return }
    retireDownstream()
  }

  /// ``retireDownstreamIfDelivering()`` when a thread is delivering. Out of line: rare, and
  /// where the code runs unspecialised its types would be looked up on every cancel.
  @inlinable
  @inline(never)
  internal mutating func retireDownstream() {
    retiredDownstream = FlatMapDownstreamBox(downstream.take().unsafelyUnwrapped)
    hasRetiredDownstream = true
  }

  /// Whether a downstream a cancel retired is due for release: the delivery it waited for
  /// has ended.
  @inlinable
  @inline(__always)
  internal var retiredDownstreamIsDue: Bool {
    // `mutating`: read in place, see ``downstreamReference``.
    mutating get { hasRetiredDownstream && !isDelivering }
  }

  /// Under the lock, once no thread delivers: the downstream a cancel retired, to release
  /// outside the lock (see ``retiredDownstream``).
  @inlinable
  internal mutating func takeRetiredDownstream() -> AnyObject? {
    guard retiredDownstreamIsDue else { return nil }
    hasRetiredDownstream = false
    return retiredDownstream.take()
  }

  /// Downstream cancelled: returns the subscriptions to cancel.
  @inlinable
  internal mutating func cancel() -> SubscriptionsToCancel {
    guard !isTerminated else { return .none }
    return releaseAll()
  }

  /// Downstream cancelled while no inner publisher is live (`liveInners == 0`, as between
  /// the values of `flatMap { Just($0) }`): ``cancel()``, returning upstream's subscription
  /// alone. With no inner live, no slot holds a subscription, so that is all there is to
  /// cancel, and no ``SubscriptionsToCancel`` is formed, copied and destroyed.
  @inlinable
  @inline(__always)
  internal mutating func cancelWithNoInnerLive() -> SubscriptionStatus {
    guard !isTerminated else { return .terminal }
    let released = upstream.take()
    releaseAllButUpstream()
    return released
  }

  /// Drops everything (downstream included) and returns the subscriptions to cancel.
  @inlinable
  internal mutating func releaseAll() -> SubscriptionsToCancel {
    var cancelling = SubscriptionsToCancel(last: upstream.take())
    if liveInners > 0 {
      cancelling.reserveCapacity(liveInners)
      for index in subscriptions.indices {
        if case .subscribed(let subscription) = subscriptions[index].take() {
          cancelling.append(subscription)
        }
      }
    }
    releaseAllButUpstream()
    return cancelling
  }

  /// What ``releaseAll()`` does besides taking the subscriptions: empties the tables and
  /// the buffer and lets go of the transform and downstream.
  @inlinable
  @inline(__always)
  internal mutating func releaseAllButUpstream() {
    // Most pipelines end with these still empty (`flatMap { Just($0) }` never fills the
    // first two): then nothing is released or stored for them.
    if !slots.isEmpty { slots = [] }
    if !subscriptions.isEmpty { subscriptions = [] }
    firstFree = -1
    liveInners = 0
    // `bufferCount`, not the array: reading the array where the code runs unspecialised
    // looked its element type up (a tuple with `Value`).
    if bufferCount > 0 { buffer = [] }
    bufferHead = 0
    bufferCount = 0
    transform = nil
    downstream = nil
    isTerminated = true
  }

  // MARK: Downstream demand and delivery

  /// Downstream asked for more: returns the first buffered value to deliver, if this
  /// thread should start delivering.
  @inlinable
  internal mutating func request(_ more: Subscribers.Demand) -> Next {
    guard !isTerminated else { return .idle }
    // Inners subscribed from now on ask for everything once this is unlimited.
    demand += more
    guard !isDelivering else { return .idle }
    return nextDelivery()
  }

  /// `flatMap`'s common request, which only adds demand: with nothing buffered, no
  /// completion due and no live inner to ask for everything, ``request(_:)`` (and
  /// ``upgradeInnersToUnlimited()``) would add `more` and find nothing to do. Then adds it
  /// and returns `true`; otherwise changes nothing and returns `false`. Answers without a
  /// ``Next``, so that the request that starts a pipeline neither forms nor destroys one (in
  /// code the compiler did not specialise, each looks its metadata up).
  @inlinable
  @inline(__always)
  internal mutating func addDemandIfQuiet(_ more: Subscribers.Demand) -> Bool {
    guard !isTerminated else { return true }
    guard more != .unlimited || demand == .unlimited || liveInners == 0 else { return false }
    guard isDelivering || (!hasBufferedValues && !isCompletionDue()) else { return false }
    demand += more
    return true
  }

  /// Downstream's demand just became unlimited (`flatMap`, as Apple's): the live inners
  /// that were asked one value at a time are now asked for everything. Returns them, to
  /// ask outside the lock.
  @inlinable
  internal mutating func upgradeInnersToUnlimited() -> [Subscription] {
    guard !isTerminated, demand == .unlimited, liveInners > 0 else { return [] }
    var upgraded: [Subscription] = []
    for index in slots.indices where slots[index].isLive && slots[index].isSubscribed && !slots[index].isUnlimited {
      if case .subscribed(let subscription) = subscriptions[index] {
        slots[index].isUnlimited = true
        upgraded.append(subscription)
      }
    }
    return upgraded
  }

  /// Whether the delivering thread may let go of delivery without looking at the state
  /// again: nothing waits for it (no failure, no buffered value, no completion due). See
  /// `FlatMapSubscription.delivery`. (`mutating` only so that the storage class reaches it
  /// in place: a getter on its stored `state` copied the whole struct.)
  @inlinable
  @inline(__always)
  internal mutating func canLetGoQuietly() -> Bool {
    !hasPendingFailure && !hasBufferedValues && !(upstreamFinished && liveInners == 0) && !isTerminated
  }

  /// Whether a merge publisher's inner value may be handed to downstream at once without
  /// the lock (`FlatMapSubscription`'s lane): whatever inner sent it, ``mergeValue(_:from:)``
  /// would deliver it and ask for nothing more, and ``didDeliver(additionalDemand:)`` with no
  /// added demand would find nothing to do. That holds while downstream's demand is
  /// unlimited, nothing is buffered, no failure waits, every inner publisher is current
  /// (none finished) and asked for everything, and completion is not due. (`mutating` only
  /// so that the storage class reaches it in place.)
  @inlinable
  internal mutating func mayOpenMergeLane() -> Bool {
    !isTerminated && demand == .unlimited && !hasLimitedOrFreedInner && !hasPendingFailure
      && !hasBufferedValues && !(upstreamFinished && liveInners == 0)
  }

  /// The delivering thread finished handing over a value; `more` is what downstream
  /// returned. Returns `false` after releasing delivery when there is nothing more to do
  /// (the common case), or `true` while keeping delivery, when there may be: a failure
  /// that waited for the delivery, buffered values, a completion. The caller then calls
  /// ``resumeDelivery()``.
  @inlinable
  @inline(__always)
  internal mutating func didDeliver(additionalDemand more: Subscribers.Demand) -> Bool {
    if !hasPendingFailure {
      guard !isTerminated else {
        isDelivering = false
        return false
      }
      demand += more
      guard hasBufferedValues || (upstreamFinished && liveInners == 0) else {
        isDelivering = false
        return false
      }
    }
    return true
  }

  /// After ``didDeliver(additionalDemand:)`` returned `true`: releases delivery and returns
  /// the next thing to deliver (which takes it again), the completion, or `.idle`.
  @inlinable
  internal mutating func resumeDelivery() -> Next {
    isDelivering = false
    // (After a cancel that followed the failure, the failure goes nowhere.)
    if hasPendingFailure, !isTerminated, let failure = pendingFailure.take()?.failure,
      let downstream = downstream.take()
    {
      hasPendingFailure = false
      isTerminated = true
      return .complete(downstream, .failure(failure), cancelling: .none)
    }
    return nextDelivery()
  }

  /// Takes the next buffered value if there is demand, else checks for completion.
  @inlinable
  internal mutating func nextDelivery() -> Next {
    guard let downstream else { return .idle }
    if hasBufferedValues && demand > 0 {
      let (value, id) = buffer[bufferHead]
      bufferHead += 1
      if bufferHead == bufferCount {
        buffer.removeAll(keepingCapacity: true)
        bufferHead = 0
        bufferCount = 0
      }
      demand -= 1
      isDelivering = true
      let askAgain = isCurrent(id) && !slots[id.slot].isUnlimited ? subscriptions[id.slot] : .terminal
      return .deliver(downstream, value, askAgain: askAgain)
    }
    return completeIfDone()
  }

  /// Finishes downstream if upstream and every inner publisher finished and nothing waits.
  @inlinable
  internal mutating func completeIfDone() -> Next {
    guard isCompletionDue(), let downstream else { return .idle }
    _ = releaseAll()
    return .complete(downstream, .finished, cancelling: .none)
  }
}
