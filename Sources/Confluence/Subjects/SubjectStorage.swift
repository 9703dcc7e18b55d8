import CConfluenceSystem
import Synchronization

/// The shared machinery behind `PassthroughSubject`, `CurrentValueSubject`,
/// `ObservableObjectPublisher` and `Published.Publisher`: a lock, the subject's
/// ``SubjectState``, and the operations that take the lock, ask the state machines what
/// to do, release the lock, and then call the subscribers.
///
/// Cost per value with one subscriber whose demand is unlimited (a subject without a
/// current value): two compare-and-exchanges on the lone-subscriber lane (take delivery
/// ownership, give it up; see `SubjectLane`), or, once the lane is bound to the sending
/// thread, two plain stores and two loads; one indirect call into code specialised for the
/// subscriber, no lock, no retain or release, and no allocation. With one subscriber
/// otherwise: two lock acquisitions (plan the delivery and take ownership; hand the
/// returned demand back and give ownership up). With `n` subscribers: one lock acquisition
/// to plan the send (a snapshot of the list, retained for the send), then for each
/// subscriber with unlimited demand two compare-and-exchanges on its own lane, and for each
/// other subscriber one more acquisition (each finishes one delivery and offers the value
/// to the next; see `SubjectConduit.deliver(_:toEach:first:of:)`). `send` may be called from any
/// thread (one that finds another thread delivering to a subscriber waits for it, then
/// delivers its value itself), and re-entrantly from inside a subscriber (the value is then
/// queued and delivered after the current one).
@usableFromInline
internal final class SubjectStorage<Output, Failure: Error>: SubjectStateHolder<SubjectState<Output, Failure>> {
  /// Biased to the thread that made the subject (see `BiasedLock`): a subject is most often
  /// made, subscribed to, sent to and cancelled on one thread (a view model's, a test's, a
  /// pipeline built per item), and each subscription runs five sections of this lock
  /// (subscribe, request, hand the demand back, finish subscribing, cancel), each of which
  /// then takes no atomic instruction. A subject several threads send to pays the
  /// revocation once (0.2–2 µs, the first time another thread takes the lock) and is then
  /// an ordinary lock whose every section reads `owner` once more: two threads sending to
  /// one subject measured no slower (`contended-subject-2`, Benchmarks/RESULTS.md).
  @usableFromInline
  internal let lock: BiasedLock

  // `state` (in ``SubjectStateHolder``) is guarded by `lock`.

  /// What `print` shows for subscriptions to this subject.
  @usableFromInline
  internal let kind: SubjectKind

  /// A copy of `state.keepsCurrentValue` that may be read without the lock.
  @usableFromInline
  internal let keepsCurrentValue: Bool

  /// The subscriptions handed over with `send(subscription:)` (guarded by `lock`): asked
  /// for `.unlimited` (at once, or once a subscriber asks; see
  /// ``SubjectKind/requestsUpstreamAtOnce``), and cancelled when the subject goes away.
  @exclusivity(unchecked) @usableFromInline
  internal var upstreams: [Subscription]

  /// Whether any subscriber has requested demand yet (guarded by `lock`).
  @exclusivity(unchecked) @usableFromInline
  internal var hasAnyDownstreamDemand = false

  /// How many of `upstreams` (a prefix) have been asked for `.unlimited` by a request that
  /// has returned (guarded by `lock`). Until all have, a subscriber's request asks the rest
  /// itself before it returns, even while another thread is asking them: a request that
  /// returned must leave the upstreams asked, or a value sent upstream just after it is
  /// dropped for want of demand (the race suite's multicast scenario saw it). A second
  /// `.unlimited` request is harmless.
  @exclusivity(unchecked) @usableFromInline
  internal var upstreamsAsked = 0

  /// The thread asking upstreams now (its `confluence_thread_token()`), or 0: its own
  /// re-entrant requests (an upstream that emits from inside `request`) leave the asking to
  /// its outer frame, so a single thread asks each upstream once (guarded by `lock`).
  @exclusivity(unchecked) @usableFromInline
  internal var upstreamAsker: UInt = 0

  /// The lone-subscriber lane's state: one of `SubjectLane`'s four, or the address of the
  /// `SubjectLaneBinding` of the thread the lane is bound to. Changed from `closed`,
  /// `ownedClosed` or bound only under `lock`; between `open` and `owned` by senders,
  /// without it; from `owned` to bound by the owner, under `lock`.
  @usableFromInline
  internal let lane = Atomic<UInt>(UInt(SubjectLane.closed))

  /// The threads the lone lane has been bound to, one binding each, newest first, linked
  /// through `SubjectLaneBinding.next` (guarded by `lock`; kept until the subject goes away:
  /// see `SubjectLaneBinding`). A list, not an array: most subjects never bind, and an
  /// absent head costs their deinit nothing.
  @exclusivity(unchecked) @usableFromInline
  internal var laneBindings: SubjectLaneBinding?

  /// How many bindings ``laneBindings`` holds (guarded by `lock`).
  @exclusivity(unchecked) @usableFromInline
  internal var laneBindingCount = 0

  /// How many times a bound lone lane was closed from another thread than the bound one
  /// (guarded by `lock`, saturating): each makes binding need a longer streak
  /// (`SubjectLane.bindingStreak`).
  @exclusivity(unchecked) @usableFromInline
  internal var laneUnbindings: UInt8 = 0

  /// The thread that sent the last value through the unbound lone lane, and how many it
  /// has sent in a row there (guarded by owning the lane: only the sender that took it
  /// touches them).
  @exclusivity(unchecked) @usableFromInline
  internal var laneStreakThread: UInt = 0

  /// See ``laneStreakThread``.
  @exclusivity(unchecked) @usableFromInline
  internal var laneStreak: UInt32 = 0

  /// The streak at which the lane's owner next tries to bind the lane to its thread
  /// (guarded by owning the lane; `UInt32.max` once binding is known to be impossible).
  @exclusivity(unchecked) @usableFromInline
  internal var laneStreakGoal: UInt32 = SubjectLane.bindingStreak(afterUnbindings: 0)

  /// The conduit the lane delivers to: written under `lock` before the lane opens (the
  /// opening store publishes it), read by the sender that takes the lane. The subject's
  /// list keeps it alive while the lane is open or owned; unretained here.
  @exclusivity(unchecked) @usableFromInline
  internal var laneConduit: Unmanaged<SubjectConduit<Output, Failure>>?

  /// Creates the storage of a subject that keeps no current value.
  ///
  /// No `Output?` parameter, `nil` here: where this runs unspecialised (a debug build's
  /// `PassthroughSubject()`), an optional value handed over looked `Optional<Output>` up in
  /// the runtime's cache twice, once to pass it and once to move it into the state.
  ///
  /// - Parameter kind: The public type it serves (`.passthrough`, `.observableObjectPublisher`).
  @inlinable
  internal init(kind: SubjectKind) {
    confluencePrecondition(!kind.keepsCurrentValue, "a subject that keeps a current value is made with it")
    self.kind = kind
    self.keepsCurrentValue = false
    lock = BiasedLock()  // in `init`, not as a default value: see `BiasedLock.init()`
    // Set here, not by a default value, whose initialiser code in a client module calls.
    self.upstreams = []
    self.laneBindings = nil
    super.init()
  }

  /// Creates the storage of a subject that keeps a current value.
  ///
  /// - Parameters:
  ///   - kind: The public type it serves (`.currentValue`, `.published`).
  ///   - currentValue: The initial value.
  @inlinable
  internal init(kind: SubjectKind, currentValue: Output) {
    confluencePrecondition(kind.keepsCurrentValue, "a subject that keeps no current value is made without one")
    self.kind = kind
    self.keepsCurrentValue = true
    lock = BiasedLock()  // in `init`, not as a default value: see `BiasedLock.init()`
    // Set here, not by a default value, whose initialiser code in a client module calls.
    self.upstreams = []
    self.laneBindings = nil
    super.init(currentValue: currentValue)
  }

  /// The current value (only for storage that keeps one).
  @inlinable
  internal var currentValue: Output {
    lock.withLock { state.currentValue.unsafelyUnwrapped }
  }

  /// Whether the subject has completed.
  @inlinable
  internal var isCompleted: Bool {
    lock.withLock { state.isCompleted }
  }

  /// Sends `value` to every subscriber that has demand for it.
  @inlinable
  internal func send(_ value: Output) {
    if keepsCurrentValue {
      sendKeepingCurrentValue(value)
      return
    }
    sendWithoutCurrentValue(value)
  }

  /// ``send(_:)`` for a subject known to keep no current value (`PassthroughSubject`,
  /// `ObservableObjectPublisher`): the lone-subscriber lane if it is open, the lock
  /// otherwise. (The lane's compare-and-exchange is its own check: a closed lane fails it.)
  @inlinable
  @inline(__always)
  internal func sendWithoutCurrentValue(_ value: Output) {
    if sendThroughBoundLane(value) { return }
    sendWithoutBoundLane(value)
  }

  /// ``sendWithoutCurrentValue(_:)`` when the lane is not bound to the calling thread: the
  /// open lane's two compare-and-exchanges, or the lock. Kept out of line so that the bound
  /// lane's path stays small enough to inline into the sender.
  @inlinable
  @inline(never)
  internal func sendWithoutBoundLane(_ value: Output) {
    if sendThroughLane(value) { return }
    sendThroughLock(value)
  }

  /// ``send(_:)`` when the lane is not open: plans the delivery under the lock. Kept out of
  /// line, apart from the open lane's path.
  @inlinable
  @inline(never)
  internal func sendThroughLock(_ value: Output) {
    // Written out between `acquire()` and `release(_:)` rather than in a closure, which in
    // unspecialised code (an unoptimised build) would look the generic metadata of its result up
    // on every send.
    let acquired = lock.acquire()
    closeLane()
    // Where this runs unspecialised (a debug build's calls, a generic helper in another
    // module, every unoptimised build), with two or more subscribers: planned and delivered
    // by the first of them (`SubjectConduit.sendAsHead(_:releasing:)`), which finds the
    // conduit type's metadata in itself, reached through the holder, which finds the state's
    // in itself (see `SubjectStateHolder`). There the plan below looked four of them up per
    // send; specialised code inlines what needed them. `_canBeClass` answers 2 ("not known
    // here") only in code that is not specialised for `Output`, and is a constant in all code.
    if _canBeClass(Output.self) > 1, sendThroughHead(value, releasing: acquired) { return }
    let plan = state.sendWithoutCurrentValue(value)
    let first = offerFirst(value, as: plan)
    lock.release(acquired)
    deliver(value, as: plan, first: first)
  }

  /// Delivers `value` through the lone-subscriber lane if it is bound to the calling thread
  /// (see `SubjectLane`, "Bound lanes"), with plain loads and stores. Returns `false`
  /// (having delivered nothing) otherwise.
  @inlinable
  @inline(__always)
  internal func sendThroughBoundLane(_ value: Output) -> Bool {
    // Acquiring: the binding's fields were written by the thread that bound the lane.
    let word = lane.load(ordering: .acquiring)
    guard SubjectLane.isBound(word) else { return false }
    return SubjectLaneBinding.bound(by: word)._withUnsafeGuaranteedRef { binding in
      // Another thread's binding, or a re-entrant send (its own `busy` is set): not here.
      guard binding.thread == confluence_thread_token(), binding.busy.load(ordering: .relaxed) == 0 else {
        return false
      }
      binding.busy.store(1, ordering: .relaxed)
      confluence_compiler_barrier()
      guard lane.load(ordering: .acquiring) == word else {
        return giveUpClosedBinding(binding)
      }
      // The lane holds the conduit's ownership while it is bound, and the subject's list
      // keeps the conduit alive; once closed meanwhile, the verdict makes this thread its
      // owner, which keeps it listed.
      let conduit = laneConduit.unsafelyUnwrapped
      conduit._withUnsafeGuaranteedRef { $0.noteDeliveringThread() }
      // The demand is unlimited: what the subscriber returns cannot change it.
      let more = conduit._withUnsafeGuaranteedRef { $0.send(value) }
      conduit._withUnsafeGuaranteedRef { $0.forgetDeliveringThread() }
      binding.busy.store(0, ordering: .releasing)
      confluence_compiler_barrier()
      if lane.load(ordering: .acquiring) != word {
        finishClosedBinding(binding, conduit: conduit, after: more)
      }
      return true
    }
  }

  /// ``sendThroughBoundLane(_:)`` found the lane closed after marking its thread busy, before
  /// calling the subscriber: unmarks it, and finishes as the conduit's owner if the closer
  /// saw the mark. Returns `false`: the value is still to be sent, by the other paths.
  @usableFromInline
  @inline(never)
  internal func giveUpClosedBinding(_ binding: SubjectLaneBinding) -> Bool {
    binding.busy.store(0, ordering: .releasing)
    let isOwner = lock.withLock { binding.takeVerdict() == .owner }
    if isOwner {
      laneConduit.unsafelyUnwrapped._withUnsafeGuaranteedRef {
        $0.noteDeliveringThread()
        $0.finishLaneDelivery(after: .none)
      }
    }
    return false
  }

  /// ``sendThroughBoundLane(_:)`` found the lane closed after delivering: finishes as the
  /// conduit's owner, through the lock, if the closer saw this thread busy.
  @usableFromInline
  @inline(never)
  internal func finishClosedBinding(
    _ binding: SubjectLaneBinding, conduit: Unmanaged<SubjectConduit<Output, Failure>>,
    after more: Subscribers.Demand
  ) {
    guard lock.withLock({ binding.takeVerdict() == .owner }) else { return }
    conduit._withUnsafeGuaranteedRef {
      $0.noteDeliveringThread()
      $0.finishLaneDelivery(after: more)
    }
  }

  /// Delivers `value` through the lone-subscriber lane if it is open and no other sender
  /// owns it. Returns `false` (having done nothing) if the lane was not open.
  @inlinable
  @inline(__always)
  internal func sendThroughLane(_ value: Output) -> Bool {
    guard
      lane.compareExchange(
        expected: UInt(SubjectLane.open), desired: UInt(SubjectLane.owned), successOrdering: .acquiring,
        failureOrdering: .relaxed
      ).exchanged
    else { return false }
    // The subject's list keeps the conduit alive while the lane is owned, and, once a
    // locked operation closed it meanwhile, while the conduit's state counts this sender
    // as its owner.
    let conduit = laneConduit.unsafelyUnwrapped
    conduit._withUnsafeGuaranteedRef { $0.noteDeliveringThread() }
    // The demand is unlimited: what the subscriber returns cannot change it.
    let more = conduit._withUnsafeGuaranteedRef { $0.send(value) }
    conduit._withUnsafeGuaranteedRef { $0.forgetDeliveringThread() }
    // The owner's streak (see `SubjectLane`, "Bound lanes").
    let me = confluence_thread_token()
    if laneStreakThread == me {
      laneStreak &+= 1
    } else {
      laneStreakThread = me
      laneStreak = 1
    }
    if laneStreak >= laneStreakGoal, bindLane(to: me) { return true }
    if !lane.compareExchange(
      expected: UInt(SubjectLane.owned), desired: UInt(SubjectLane.open), ordering: .releasing
    ).exchanged {
      // Closed meanwhile (a value queued, a cancel, a completion, a new subscriber): finish
      // as the conduit's owner, through the lock.
      conduit._withUnsafeGuaranteedRef {
        $0.noteDeliveringThread()
        $0.finishLaneDelivery(after: more)
      }
    }
    return true
  }

  /// The owner of the lone lane (having forgotten itself as the conduit's delivering
  /// thread) gives the lane up by binding it to its thread `me`, if the lane was not closed
  /// meanwhile, binding is possible, and `me` has sent the streak that binding now needs.
  /// Returns whether it did; if not, the caller gives the lane up as usual.
  @usableFromInline
  @inline(never)
  internal func bindLane(to me: UInt) -> Bool {
    lock.withLock {
      // Closed meanwhile: the caller's give-up fails and it finishes through the lock.
      guard lane.load(ordering: .relaxed) == UInt(SubjectLane.owned) else { return false }
      guard ProcessBarrier.isAvailable else {
        laneStreakGoal = .max
        return false
      }
      let needed = SubjectLane.bindingStreak(afterUnbindings: laneUnbindings)
      guard laneStreak >= needed else {
        laneStreakGoal = needed
        return false
      }
      var existing = laneBindings
      while let candidate = existing, candidate.thread != me { existing = candidate.next }
      let binding: SubjectLaneBinding
      if let existing {
        binding = existing
      } else if laneBindingCount < SubjectLane.maximumBindings {
        binding = SubjectLaneBinding(thread: me, next: laneBindings)
        laneBindings = binding
        laneBindingCount += 1
      } else {
        laneStreakGoal = .max
        return false
      }
      binding.verdict = .pending
      laneStreak = 0
      lane.store(binding.word, ordering: .releasing)
      return true
    }
  }

  /// Under the lock: closes the lone-subscriber lane before an operation that may change
  /// what keeps it open. While the lane is open or owned, the conduit's state machine counts
  /// it as the owner (`isDelivering`): closing an open lane ends that; closing an owned one
  /// leaves the sender that owns it as the owner, so the operation queues behind it, and
  /// that sender finishes through the lock.
  @inlinable
  @inline(__always)
  internal func closeLane() {
    let current = lane.load(ordering: .relaxed)
    if SubjectLane.needsClosing(lone: current) {
      closeOpenLane(current)
    }
  }

  /// ``closeLane()`` when the lane was open, owned or bound. (Not inlined: the critical
  /// sections that close the lane stay small enough to be inlined where they are used.)
  @inlinable
  @inline(never)
  internal func closeOpenLane(_ seen: UInt) {
    if SubjectLane.isBound(seen) {
      closeBoundLane(SubjectLaneBinding.bound(by: seen))
    } else if SubjectLane.close(lone: lane, seen: seen) {
      laneConduit.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.state.isDelivering = false }
    }
  }

  /// Under the lock: closes the lone lane bound to `binding`'s thread (see `SubjectLane`,
  /// "Bound lanes", steps (a)–(d)). From another thread, this waits for the process-wide
  /// barrier (microseconds) with the lock held.
  @usableFromInline
  internal func closeBoundLane(_ binding: Unmanaged<SubjectLaneBinding>) {
    binding._withUnsafeGuaranteedRef { binding in
      // (a) From here the bound thread's reads of the lane fail.
      lane.store(UInt(SubjectLane.ownedClosed), ordering: .sequentiallyConsistent)
      // (b) Its own `busy` needs no barrier on its own thread.
      if binding.thread != confluence_thread_token() {
        ProcessBarrier.synchronize()
        if laneUnbindings < .max { laneUnbindings += 1 }
      }
      // (c), (d)
      if binding.busy.load(ordering: .sequentiallyConsistent) != 0 {
        binding.verdict = .owner
      } else {
        binding.verdict = .notOwner
        lane.store(UInt(SubjectLane.closed), ordering: .relaxed)
        laneConduit.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.state.isDelivering = false }
      }
    }
  }

  /// Under the lock: closes `conduit`'s own lane (see `SubjectLane`) before an operation
  /// that may change what keeps it open, as ``closeLane()`` does for the lone-subscriber
  /// lane.
  @inlinable
  @inline(__always)
  internal func closeOwnLane(of conduit: SubjectConduit<Output, Failure>) {
    let current = conduit.lane.load(ordering: .relaxed)
    if SubjectLane.needsClosing(current) {
      closeOpenOwnLane(of: conduit, seen: current)
    }
  }

  /// ``closeOwnLane(of:)`` when the lane was open or owned.
  @inlinable
  @inline(never)
  internal func closeOpenOwnLane(of conduit: SubjectConduit<Output, Failure>, seen: UInt8) {
    if SubjectLane.close(conduit.lane, seen: seen) {
      conduit.state.isDelivering = false
    }
  }

  /// Under the lock: removes `conduit` from the list (see `SubjectState.remove`). A
  /// subscriber left alone loses its own lane: a lone subscriber is served through the
  /// subject's lane, and a send through the lock offers to a lone subscriber without
  /// looking at lanes.
  ///
  /// A conduit whose subscriber is still in `receive(subscription:)` stays listed, cancelled
  /// or not, and `nil` is returned: the list's reference is the one that keeps the conduit
  /// alive during that call (``receive(subscriber:parent:)`` holds none of its own), so the
  /// conduit leaves when the call returns (`SubjectConduit.finishSubscribing()`).
  @inlinable
  internal func remove(_ conduit: SubjectConduit<Output, Failure>) -> SubjectConduit<Output, Failure>? {
    if conduit.state.isSubscribing { return nil }
    let removed = state.remove(conduit)
    if state.conduits.count == 1 {
      closeOwnLane(of: state.conduits[0])
    }
    return removed
  }

  /// Under the lock: opens the lone-subscriber lane for `conduit` if nothing but the value
  /// needs deciding for it (see `SubjectLane`): the subject keeps no current value and has
  /// not completed, `conduit` is its only subscriber, with unlimited demand, no owner,
  /// nothing queued, not cancelled or completing.
  @inlinable
  @inline(__always)
  internal func openLaneIfEligible(for conduit: SubjectConduit<Output, Failure>) {
    #if CONFLUENCE_LOCKED_FAST_PATHS
      // The differential check's build: no lane ever opens, every value goes through the lock.
    #else
      guard !keepsCurrentValue, conduit.state.isLaneEligible, !state.isCompleted else { return }
      if state.conduits.count == 1 {
        guard state.conduits[0] === conduit, lane.load(ordering: .relaxed) == UInt(SubjectLane.closed) else {
          return
        }
        laneConduit = Unmanaged.passUnretained(conduit)
        // The lane holds the conduit's ownership while it is open: an operation that finds the
        // conduit owned closes the lane first (see `offer(_:to:)`).
        conduit.state.isDelivering = true
        lane.store(UInt(SubjectLane.open), ordering: .releasing)
      } else if state.conduits.count > 1, conduit.lane.load(ordering: .relaxed) == SubjectLane.closed {
        // One of several subscribers (listed: it is neither cancelled nor completed): its own
        // lane, which likewise holds its ownership while open.
        conduit.state.isDelivering = true
        conduit.lane.store(SubjectLane.open, ordering: .releasing)
      }
    #endif
  }

  /// Sets the current value, as `CurrentValueSubject.value`'s setter: like ``send(_:)``,
  /// except that after completion the value still changes (without reaching anyone), as in
  /// Apple's Combine, where only `send(_:)` is ignored once the subject has completed.
  @inlinable
  internal func setCurrentValue(_ value: Output) {
    let (plan, first, replaced) = lock.withLock {
      () -> (SubjectState<Output, Failure>.SendPlan, SubjectOffer?, Output?) in
      var replaced: Output?
      if state.isCompleted {
        replaced = state.currentValue.take()
        state.currentValue = value
        return (.none, nil, replaced)
      }
      let plan = state.sendKeepingCurrentValue(value, replaced: &replaced)
      return (plan, offerFirst(value, as: plan), replaced)
    }
    deliver(value, as: plan, first: first)
    withExtendedLifetime(replaced) {}  // the previous current value dies outside the lock
  }

  /// ``send(_:)`` for a subject that keeps a current value.
  @inlinable
  internal func sendKeepingCurrentValue(_ value: Output) {
    let (plan, first, replaced) = lock.withLock {
      () -> (SubjectState<Output, Failure>.SendPlan, SubjectOffer?, Output?) in
      var replaced: Output?
      let plan = state.sendKeepingCurrentValue(value, replaced: &replaced)
      return (plan, offerFirst(value, as: plan), replaced)
    }
    deliver(value, as: plan, first: first)
    withExtendedLifetime(replaced) {}  // the previous current value dies outside the lock
  }

  /// Under the lock, right after `SubjectState` planned to deliver to several subscribers:
  /// offers `value` to the first of them in the same critical section (the delivery loop
  /// would otherwise take the lock once more just for that), unless its own lane is open, and
  /// says what became of it (`nil`: not offered; the delivery loop starts with the first
  /// subscriber).
  @inlinable
  @inline(__always)
  internal func offerFirst(_ value: Output, as plan: SubjectState<Output, Failure>.SendPlan) -> SubjectOffer? {
    guard case .many = plan else { return nil }
    // The plan's snapshot is this very list, unchanged since: its first conduit.
    let first = Unmanaged.passUnretained(state.conduits[0])
    // Through its own lane, after the lock, if that is open.
    if first._withUnsafeGuaranteedRef({ $0.lane.load(ordering: .relaxed) == SubjectLane.open }) { return nil }
    return offer(value, to: first)
  }

  /// Carries out a plan made by `SubjectState.plan`; with several subscribers, the first
  /// may have been offered the value already (``offerFirst(_:as:)``), and `first` says so.
  @inlinable
  @inline(__always)
  internal func deliver(_ value: Output, as plan: SubjectState<Output, Failure>.SendPlan, first: SubjectOffer?) {
    switch plan {
    case .none:
      break
    case .one(let conduit):
      // The subject's list keeps the conduit alive while this thread owns delivery.
      conduit._withUnsafeGuaranteedRef { $0.deliver(value) }
    case .many(let conduits):
      SubjectConduit.deliver(value, toEach: conduits, first: first, of: self)
    case .wait(let conduit):
      deliverAfterWaiting(value, to: Unmanaged.passUnretained(conduit))
      _fixLifetime(conduit)
    case .reserved(let conduits, let reservations):
      // `conduits`, a snapshot of the list, keeps every conduit alive until this returns.
      reservations.forEach { index in
        deliverReserved(value, to: Unmanaged.passUnretained(conduits[index]))
      }
    }
  }

  /// Another thread owned delivery to `conduit` when `value` was offered to it, and the
  /// subscriber accepted it (demand is reserved): waits until that thread gives ownership
  /// up, then claims it and delivers the value. The caller keeps `conduit` alive and owns no
  /// delivery.
  ///
  /// This is what makes a send return only once its value was delivered, on the sender's
  /// thread, as with Apple's subjects, instead of handing it to the other thread: an owner
  /// that delivered every value queued by others could be kept delivering for as long as
  /// they send. Waiting is rare (two threads sending to one subscriber at the same moment)
  /// and short (one call into the subscriber), so it backs off on the lock rather than
  /// sleeping on a wait queue that every delivery would have to signal.
  @inlinable
  @inline(never)
  internal func deliverAfterWaiting(_ value: Output, to conduit: Unmanaged<SubjectConduit<Output, Failure>>) {
    var backoff = Backoff()
    while true {
      backoff.pause()
      switch lock.withLock({ claim(value, at: conduit) }) {
      case .owned:
        conduit._withUnsafeGuaranteedRef { $0.deliver(value) }
        return
      case .declined:
        return
      case .busy:
        continue
      }
    }
  }

  /// A subject with a current value: `conduit` accepted `value` for this sender when it
  /// became current (`SubjectState.reserveForEach`); claims delivery (at once if nobody owns
  /// it, else after waiting) and delivers the value. The caller keeps `conduit` alive and
  /// owns no delivery.
  @inlinable
  internal func deliverReserved(_ value: Output, to conduit: Unmanaged<SubjectConduit<Output, Failure>>) {
    switch lock.withLock({ claim(value, at: conduit) }) {
    case .owned:
      conduit._withUnsafeGuaranteedRef { $0.deliver(value) }
    case .declined:
      break
    case .busy:
      deliverAfterWaiting(value, to: conduit)
    }
  }

  /// Under the lock: claims delivery of an accepted `value` to `conduit` (see
  /// `SubjectConduitState.claimReserved`), closing any lane that holds its ownership first.
  @inlinable
  internal func claim(_ value: Output, at conduit: Unmanaged<SubjectConduit<Output, Failure>>) -> SubjectOffer {
    conduit._withUnsafeGuaranteedRef {
      if $0.state.isDelivering {
        closeLane()
        closeOwnLane(of: $0)
      }
      return $0.claimReserved(value)
    }
  }

  /// Delivers `value` to `conduit`, one of several subscribers, through its own lane if no
  /// other sender owns it. Returns `false` (having done nothing) if the lane was not open.
  @inlinable
  @inline(__always)
  internal func sendThroughOwnLane(_ value: Output, to conduit: SubjectConduit<Output, Failure>) -> Bool {
    guard
      conduit.lane.compareExchange(
        expected: SubjectLane.open, desired: SubjectLane.owned, successOrdering: .acquiring,
        failureOrdering: .relaxed
      ).exchanged
    else { return false }
    conduit.noteDeliveringThread()
    // The demand is unlimited: what the subscriber returns cannot change it.
    let more = conduit.send(value)
    conduit.forgetDeliveringThread()
    if !conduit.lane.compareExchange(expected: SubjectLane.owned, desired: SubjectLane.open, ordering: .releasing)
      .exchanged
    {
      // Closed meanwhile: finish as the conduit's owner, through the lock.
      conduit.noteDeliveringThread()
      conduit.finishOwnLaneDelivery(after: more)
    }
    return true
  }

  /// Under the lock: offers `value` to `conduit` (see `SubjectConduitState.offer`). An owned
  /// conduit may be owned by a lane (its own, or, if the list shrank to it alone since the
  /// caller's snapshot, the subject's), which is then closed first.
  @inlinable
  @inline(__always)
  internal func offer(_ value: Output, to conduit: Unmanaged<SubjectConduit<Output, Failure>>) -> SubjectOffer {
    conduit._withUnsafeGuaranteedRef {
      if $0.state.isDelivering {
        closeLane()
        closeOwnLane(of: $0)
      }
      return $0.offer(value, keepsCurrentValue: keepsCurrentValue)
    }
  }

  /// Completes every subscriber; later sends are ignored and later subscribers receive the
  /// completion at once.
  @inlinable
  internal func send(completion: Subscribers.Completion<Failure>) {
    let completeNow = lock.withLock { () -> ContiguousArray<SubjectConduit<Output, Failure>> in
      closeLane()
      for conduit in state.conduits {
        closeOwnLane(of: conduit)
      }
      return state.complete(completion)
    }
    for conduit in completeNow {
      conduit.deliverCompletion(completion)
    }
  }

  /// Attaches `subscriber`: hands it a conduit (or, once completed, `Subscriptions.empty`
  /// and the completion).
  ///
  /// - Parameter parent: The public subject object, which the conduit keeps alive (and
  ///   shows in its mirror) until it is cancelled or completed, as Apple's conduits do.
  @inlinable
  internal func receive<S: Subscriber>(subscriber: S, parent: AnyObject) where S.Input == Output, S.Failure == Failure {
    let conduit = SubjectConduit(storage: self, parent: parent, downstream: subscriber)
    // The reference just made is moved into the list, and the subscriber is handed the
    // conduit borrowed from it: the list keeps every conduit whose subscriber is still in
    // `receive(subscription:)`, cancelled or not, until the call returns (see
    // ``remove(_:)``). The subscriber retains the subscription it keeps, and that is all.
    // Holding a reference here as well, for the call, would cost a retain and a release
    // per subscription (two atomic operations, 13 ns on the benchmark machine).
    let unmanaged = Unmanaged.passUnretained(conduit)
    // The section written out with the lock (a closure of its own looked the conduit's and
    // the list's types up where the code runs unspecialised).
    let hold = lock.acquire()
    closeLane()
    guard !state.isCompleted else {
      lock.release(hold)
      // The conduit never served: it lets its references go (here, outside the lock)
      // without completing anyone.
      _ = consume conduit
      refuse(subscriber)
      return
    }
    state.subscribe(consume conduit)
    lock.release(hold)
    // A request from inside `receive(subscription:)` delivers at once (Apple's
    // `CurrentValueSubject` hands its current value over inside that request); a
    // completion that arrives meanwhile waits until it returns.
    //
    // The existential is formed from the list's reference without a retain, and forgotten
    // instead of released (see ``forget(_:)``): formed from a borrowed reference
    // (`_withUnsafeGuaranteedRef`), the optimiser retained it for the call and released it
    // after.
    let lent: Subscription = unmanaged.takeRetainedValue()
    subscriber.receive(subscription: lent)
    forget(consume lent)
    unmanaged._withUnsafeGuaranteedRef { $0.finishSubscribing() }
  }

  /// ``receive(subscriber:parent:)`` for a relay an operator has just made and keeps no copy
  /// of (`Publisher._receiveRelay(_:)`): the relay is moved into the conduit, and
  /// `receive(subscription:)` is called on the conduit's copy, borrowed. Borrowing the relay
  /// instead, the conduit retained each reference in it and the operator released its own
  /// after the call: two atomic operations per pipeline built on a subject.
  ///
  /// Sound because the conduit keeps its subscriber until `receive(subscription:)` returns,
  /// even when it is cancelled meanwhile (`SubjectConduit.takeDownstream()`), and the list
  /// keeps the conduit (``remove(_:)``). A subscriber the conduit keeps as a reference and a
  /// tag has its reference adopted (``receive(inline:parent:)``); one it boxes is handed
  /// over borrowed as before.
  ///
  /// - Parameter parent: The public subject object (see ``receive(subscriber:parent:)``).
  @inlinable
  internal func receive<S: Subscriber>(relay: consuming S, parent: AnyObject)
  where S.Input == Output, S.Failure == Failure {
    let form = SubjectDownstreamForm.of(S.self)
    if form == .inline {
      receive(inline: relay, parent: parent)
      return
    }
    guard form == .itself || form == .stored else {
      receive(subscriber: relay, parent: parent)
      return
    }
    let conduit = SubjectConduit(storage: self, parent: parent, downstream: consume relay)
    let unmanaged = Unmanaged.passUnretained(conduit)
    let hold = lock.acquire()
    closeLane()
    guard !state.isCompleted else {
      lock.release(hold)
      // The conduit never served; the relay lives in it until it goes, after the refusal.
      conduit.lendSubscriber(S.self) { refuse($0) }
      _ = consume conduit
      return
    }
    state.subscribe(consume conduit)
    lock.release(hold)
    // As in ``receive(subscriber:parent:)``: the list's reference keeps the conduit, and the
    // conduit its relay, until `finishSubscribing()`.
    unmanaged._withUnsafeGuaranteedRef { conduit in
      conduit.lendSubscriber(S.self) { relay in
        // Formed here, next to the call: formed outside the closure, the optimiser lost the
        // subscription's class, and the relay's downstream stored it through value witnesses.
        let lent: Subscription = unmanaged.takeRetainedValue()
        relay.receive(subscription: lent)
        forget(consume lent)
      }
    }
    unmanaged._withUnsafeGuaranteedRef { $0.finishSubscribing() }
  }

  /// ``receive(relay:parent:)`` for an inline subscriber (a side of `zip` or
  /// `combineLatest`): the conduit adopts its reference, and the subscriber's calls go
  /// through its type's static functions with the reference and tag the conduit keeps.
  @inlinable
  @inline(never)
  internal func receive<S: Subscriber>(inline relay: consuming S, parent: AnyObject)
  where S.Input == Output, S.Failure == Failure {
    let inline = S.self as! any SubjectInlineSubscriber.Type
    let conduit = SubjectConduit(storage: self, parent: parent, downstream: relay, adoptingReference: true)
    let reference = conduit.downstream.unsafelyUnwrapped
    let tag = conduit.downstreamTag
    let unmanaged = Unmanaged.passUnretained(conduit)
    let hold = lock.acquire()
    closeLane()
    guard !state.isCompleted else {
      lock.release(hold)
      let completion = lock.withLock { state.completion }
      Unmanaged<AnyObject>.fromOpaque(reference)._withUnsafeGuaranteedRef { held in
        inline.subjectReceive(held, tag: tag, subscription: Subscriptions.empty)
        withUnsafePointer(to: completion) { inline.subjectReceive(held, tag: tag, completion: $0) }
      }
      _ = consume conduit
      return
    }
    state.subscribe(consume conduit)
    lock.release(hold)
    Unmanaged<AnyObject>.fromOpaque(reference)._withUnsafeGuaranteedRef { held in
      let lent: Subscription = unmanaged.takeRetainedValue()
      inline.subjectReceive(held, tag: tag, subscription: lent)
      forget(consume lent)
    }
    unmanaged._withUnsafeGuaranteedRef { $0.finishSubscribing() }
  }

  /// Hands `subscriber` the subject's completion, which came before it subscribed (with an
  /// empty subscription first, as Apple's subjects do). Out of line: rare.
  @inlinable
  @inline(never)
  internal func refuse<S: Subscriber>(_ subscriber: borrowing S) where S.Input == Output, S.Failure == Failure {
    // Set once, before `isCompleted`, and never changed again.
    let completion = lock.withLock { state.completion }
    subscriber.receive(subscription: Subscriptions.empty)
    subscriber.receive(completion: completion)
  }

  // MARK: Upstream subscriptions

  /// `send(subscription:)`: keeps `subscription`, and asks it for `.unlimited` at once if
  /// this kind of subject does, or if a subscriber already asked for something.
  @inlinable
  internal func receive(subscription: Subscription) {
    let requestNow = lock.withLock { () -> Int? in
      upstreams.append(subscription)
      if kind.requestsUpstreamAtOnce { return upstreams.count }
      guard hasAnyDownstreamDemand else { return nil }
      upstreamAsker = confluence_thread_token()
      return upstreams.count
    }
    if let asked = requestNow {
      subscription.request(.unlimited)
      if !kind.requestsUpstreamAtOnce { didAskUpstreams(through: asked) }
    }
  }

  /// Under the lock: a subscriber requested demand. Returns the upstream subscriptions to
  /// ask for `.unlimited` now (and how far into `upstreams` they go, for
  /// ``didAskUpstreams(through:)``), if the subject waited for a first demand and some
  /// upstream has not been asked yet by a request that returned.
  @inlinable
  internal func noteDownstreamDemand() -> (subscriptions: ArraySlice<Subscription>, through: Int)? {
    hasAnyDownstreamDemand = true
    guard !kind.requestsUpstreamAtOnce, upstreamsAsked < upstreams.count else { return nil }
    let me = confluence_thread_token()
    if upstreamAsker == me { return nil }
    upstreamAsker = me
    return (upstreams[upstreamsAsked...], upstreams.count)
  }

  /// Whether every upstream has been asked by a request that returned (under the lock).
  @inlinable
  internal var upstreamsAllAsked: Bool {
    kind.requestsUpstreamAtOnce || upstreamsAsked >= upstreams.count
  }

  /// The upstreams up to `through` have been asked for `.unlimited` (takes the lock).
  @inlinable
  internal func didAskUpstreams(through: Int) {
    let me = confluence_thread_token()
    lock.withLock {
      upstreamsAsked = max(upstreamsAsked, min(through, upstreams.count))
      if upstreamAsker == me { upstreamAsker = 0 }
    }
  }

  /// The subject goes away: cancels every upstream subscription it was handed.
  @usableFromInline
  internal func cancelUpstreams() {
    let cancelled = lock.withLock { () -> [Subscription] in
      defer {
        upstreams = []
        upstreamsAsked = 0
      }
      return upstreams
    }
    for subscription in cancelled {
      subscription.cancel()
    }
  }
}
