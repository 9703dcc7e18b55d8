/// The state machine of a fan-in operator (`zip`, `combineLatest`, of two to four
/// upstreams): the upstream subscriptions, downstream demand, which thread delivers, and completion; `Logic` decides
/// how values are kept and when an output is ready. Transitions return what the storage
/// class must do once the lock is released.
@usableFromInline
internal struct FanInState<Logic: FanInLogic, Failure: Error> {
  @usableFromInline
  internal enum Next {
    case idle
    /// Deliver the output (this thread now owns delivery).
    case deliver(Logic.Output)
    /// Send the completion and cancel the given upstreams. (`indirect`: the upstream
    /// slots inline made every copy of the enum, on the per-value path too, go through
    /// its generic value witnesses; boxed, they cost one allocation once per completion.)
    indirect case complete(Subscribers.Completion<Failure>, cancelling: FanInUpstreams)
    /// Send the completion; no upstream is left to cancel (no box to allocate).
    case completeOnly(Subscribers.Completion<Failure>)
    /// Cancel upstreams only (the delivering thread sends the completion).
    indirect case cancel(FanInUpstreams)
  }

  // The fields whose size does not depend on the generic parameters come first, `logic`
  // and `pendingFailure` last: the others then sit at fixed offsets, so that generic code
  // the compiler did not specialise reads them without looking this struct's metadata up in
  // the runtime's cache (about 300 instructions a critical section). (The flags sit
  // together, so that the padding does not grow the subscription's allocation.)
  @usableFromInline internal var upstreamA = FanInSideStatus.awaitingSubscription
  @usableFromInline internal var upstreamB = FanInSideStatus.awaitingSubscription
  /// Stays `awaitingSubscription` for two upstreams.
  @usableFromInline internal var upstreamC = FanInSideStatus.awaitingSubscription
  /// Stays `awaitingSubscription` for two or three upstreams.
  @usableFromInline internal var upstreamD = FanInSideStatus.awaitingSubscription
  /// The upstreams that finished.
  @usableFromInline internal var finished = FanInSides()
  /// The sides whose `Just` (a ``FanInJustSubscription``) has handed its value over.
  @usableFromInline internal var justsDelivered = FanInSides()
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var isTerminated = false
  /// One output was delivered beyond demand (``FanInLogic/deliversOneBeyondDemand``):
  /// the next demand pays it back first.
  @usableFromInline internal var isOverdrawn = false
  /// Whether some thread is delivering downstream right now (the storage class sets it from
  /// its lock-free `delivery` word on entering each critical section).
  @usableFromInline internal var isDelivering = false
  /// Whether `pendingFailure` holds a failure (read on the per-value path instead of the
  /// optional, whose test in unspecialised code needs `Optional<Failure>`'s metadata).
  @usableFromInline internal var hasPendingFailure = false
  /// The side whose value set off the delivery running now, if one did: demand the
  /// downstream adds meanwhile is returned to it from its `receive(_:)` rather than
  /// requested (Apple's rule), and requested from the other sides.
  @usableFromInline internal var sender: FanInSide?
  @usableFromInline internal var senderOwed = Subscribers.Demand.none
  @usableFromInline internal var logic = Logic()
  /// A failure that arrived while a thread was delivering (`hasPendingFailure` says so).
  @usableFromInline internal var pendingFailure: Failure?

  @inlinable
  @inline(__always)
  internal init() {}

  /// An upstream subscription arrived: returns the demand already owed to it, or `nil` if
  /// it must be cancelled.
  @inlinable
  internal mutating func subscribed(_ side: FanInSide, _ subscription: Subscription) -> Subscribers.Demand? {
    guard !isTerminated else { return nil }
    return withUpstream(side) { $0.accept(subscription) } ? demand : nil
  }

  /// The `Just` on `side` subscribed (see ``FanInJustSubscription``): as
  /// ``subscribed(_:_:)``, the side's status holding the `Just` as it is
  /// (``FanInSideStatus/just(_:)``).
  @inlinable
  internal mutating func justSubscribed(_ side: FanInSide, _ just: FanInJustSubscription) -> Subscribers.Demand? {
    guard !isTerminated else { return nil }
    return withUpstream(side) { $0.accept(just: just) } ? demand : nil
  }

  /// Runs `body` on the subscription status of `side`.
  @inlinable
  @inline(__always)
  internal mutating func withUpstream<Result>(_ side: FanInSide, _ body: (inout FanInSideStatus) -> Result)
    -> Result
  {
    switch side {
    case .a: return body(&upstreamA)
    case .b: return body(&upstreamB)
    case .c: return body(&upstreamC)
    case .d: return body(&upstreamD)
    }
  }

  /// A value arrived from `side`; `keep` hands it to the logic (with whether a delivery is in
  /// progress). If it completed an output and nobody delivers, this thread takes delivery of
  /// it, `side` noted as the sender: the step is `deliver`, and the caller takes the output
  /// before it leaves the critical section (see ``nextStep()``).
  @inlinable
  @inline(__always)
  internal mutating func receive(from side: FanInSide, _ keep: (inout Logic, _ whileDelivering: Bool) -> Void)
    -> FanInStep
  {
    guard !isTerminated else { return .idle }
    keep(&logic, isDelivering)
    if isDelivering { return .idle }
    let step = nextStep()
    if case .deliver = step { sender = side }  // matched: an unoptimised build calls `==` through a witness
    return step
  }

  /// The `Just` on `side`, whose value's bytes are `bits` (see ``FanInJustSubscription``),
  /// was asked for its value: as ``receive(from:_:)``, or `nothing` when this is not the
  /// first time or the whole has ended (a `Just` delivers once, and not after cancel); then
  /// neither the value nor the completion is delivered.
  ///
  /// When the value sets nothing off, the `Just`'s completion, which follows at once, is
  /// taken in the same critical section, as ``finished(_:)`` takes it (the answer is then
  /// `settled` or `completionStep`): one of the interleavings of the two sections it would
  /// take apart.
  ///
  /// The answer is non-generic (see ``FanInJustArrival``); the caller turns a step that is
  /// not `idle` into a `Next` with ``next(after:)`` before the critical section ends.
  @inlinable
  @inline(__always)
  internal mutating func takeJust(from side: FanInSide, bits: UInt64) -> FanInJustArrival {
    guard !isTerminated, !justsDelivered.contains(side.member) else { return .nothing }
    justsDelivered.insert(side.member)
    let step = receive(from: side) { logic, whileDelivering in
      typealias Bits = FanInJustSubscription
      switch side {
      case .a: logic.receive(a: Bits.value(of: bits, as: Logic.A.self), whileDelivering: whileDelivering)
      case .b: logic.receive(b: Bits.value(of: bits, as: Logic.B.self), whileDelivering: whileDelivering)
      case .c: logic.receive(c: Bits.value(of: bits, as: Logic.C.self), whileDelivering: whileDelivering)
      case .d: logic.receive(d: Bits.value(of: bits, as: Logic.D.self), whileDelivering: whileDelivering)
      }
    }
    guard case .idle = step else { return .valueStep(step) }
    // ``finished(_:)``, its `Next` left as a step: the whole cannot have ended here (the
    // value's step was `idle`).
    markFinished(side)
    if isDelivering { return .settled }
    let after = nextStep()
    guard case .idle = after else { return .completionStep(after) }
    return .settled
  }

  /// The `Just` on `side` subscribed (``justSubscribed(_:_:)``) and, if demand waits, its
  /// value and completion taken (``takeJust(from:bits:)``), in one critical section.
  @inlinable
  @inline(__always)
  internal mutating func justArrived(_ side: FanInSide, _ just: FanInJustSubscription) -> FanInJustArrival {
    guard let owed = justSubscribed(side, just), owed > 0 else { return .nothing }
    return takeJust(from: side, bits: just.bits)
  }

  @inlinable
  internal mutating func finished(_ side: FanInSide) -> Next {
    guard !isTerminated else { return .idle }
    markFinished(side)
    return isDelivering ? .idle : nextDelivery()
  }

  /// `side` finished: noted, and its subscription released. As Apple's: a side that
  /// finished is released, not cancelled, when the whole completes (only the sides still
  /// running are cancelled).
  @inlinable
  @inline(__always)
  internal mutating func markFinished(_ side: FanInSide) {
    finished.insert(side.member)
    switch side {
    case .a: _ = upstreamA.take()
    case .b: _ = upstreamB.take()
    case .c: _ = upstreamC.take()
    case .d: _ = upstreamD.take()
    }
  }

  @inlinable
  internal mutating func failed(_ error: Failure) -> Next {
    guard !isTerminated else { return .idle }
    let cancelling = releaseAll()
    if isDelivering {
      pendingFailure = error
      hasPendingFailure = true
      return .cancel(cancelling)
    }
    return Self.completing(.failure(error), cancelling: cancelling)
  }

  /// Downstream asked for more: returns the upstreams to forward the demand to, and what
  /// to deliver now as a non-generic step (see ``FanInStep``). The caller turns a step that
  /// is not `idle` into a `Next` with ``next(after:)`` before the critical section ends. A
  /// request usually sets nothing off (the one that starts a pipeline, with no value in
  /// yet), and then no `Next` is formed.
  @inlinable
  @inline(__always)
  internal mutating func requestStep(_ more: Subscribers.Demand) -> (FanInUpstreams, FanInStep) {
    guard !isTerminated else { return (.none, .idle) }
    addDemand(more)
    if isDelivering { return (upstreamsOwing(more), .idle) }
    let forward = liveUpstreams(except: nil)
    return (forward, nextStep())
  }

  /// The delivering thread handed over an output and downstream asked for `more`
  /// (non-zero): returns the upstreams to request it from as well.
  @inlinable
  internal mutating func didDeliver(
    additionalDemand more: Subscribers.Demand
  ) -> (forward: FanInUpstreams, next: Next, owedToSender: Subscribers.Demand) {
    guard !isTerminated, !hasPendingFailure else {
      let (next, owed) = didDeliver()
      return (.none, next, owed)
    }
    isDelivering = false
    addDemand(more)
    let forward = upstreamsOwing(more)
    let next = nextDelivery()
    if case .deliver = next { return (forward, next, .none) }
    return (forward, next, takeSenderOwed())
  }

  /// The delivering thread handed over an output and downstream asked for nothing more
  /// (the per-value path of an unlimited subscriber): what follows, and what the sender
  /// is owed.
  @inlinable
  internal mutating func didDeliver() -> (next: Next, owedToSender: Subscribers.Demand) {
    isDelivering = false
    if hasPendingFailure, let failure = pendingFailure.take() {
      hasPendingFailure = false
      return (.completeOnly(.failure(failure)), takeSenderOwed())
    }
    guard !isTerminated else { return (.idle, takeSenderOwed()) }
    let next = nextDelivery()
    if case .deliver = next { return (next, .none) }
    return (next, takeSenderOwed())
  }

  /// Whether the delivering thread, handed back no further demand, may let go of delivery
  /// without looking at the state again: ``didDeliver()`` would find nothing to do (no
  /// failure waits, no output is ready to go, no completion is due, the sender is owed
  /// nothing). Evaluated when delivery is taken; any critical section that runs before the
  /// owner lets go makes it look again. (`mutating` only so that the storage class reaches
  /// it in place: a method on its stored `state` copied the whole struct.)
  @inlinable
  @inline(__always)
  internal mutating func canLetGoQuietly() -> Bool {
    guard !hasPendingFailure, !isTerminated, senderOwed == .none, !logic.hasOutputsBehindNewest else { return false }
    if demand > 0 || (Logic.deliversOneBeyondDemand && !isOverdrawn), logic.hasOutput() { return false }
    return !logic.isDone(finished: finished)
  }

  /// The upstreams to request `more` from: all live ones but the sender, which is owed it
  /// through its return value instead.
  @inlinable
  internal mutating func upstreamsOwing(_ more: Subscribers.Demand) -> FanInUpstreams {
    guard let sender else { return liveUpstreams(except: nil) }
    senderOwed += more
    return liveUpstreams(except: sender)
  }

  /// Ends the delivery the sender set off: what it is owed.
  @inlinable
  internal mutating func takeSenderOwed() -> Subscribers.Demand {
    defer {
      sender = nil
      senderOwed = .none
    }
    return senderOwed
  }

  @inlinable
  internal mutating func cancel() -> FanInUpstreams {
    guard !isTerminated else { return .none }
    return releaseAll()
  }

  /// Copies of the sides that hold a subscription, but `excluded` (the rest `.terminal`): a
  /// side that finished, or a side this operator does not have, costs no copy of its status.
  @inlinable
  internal mutating func liveUpstreams(except excluded: FanInSide?) -> FanInUpstreams {
    FanInUpstreams(
      a: excluded == .a ? .terminal : upstreamA.copyIfSubscribed(),
      b: excluded == .b ? .terminal : upstreamB.copyIfSubscribed(),
      c: excluded == .c ? .terminal : upstreamC.copyIfSubscribed(),
      d: excluded == .d ? .terminal : upstreamD.copyIfSubscribed())
  }

  @inlinable
  @inline(__always)
  internal mutating func nextDelivery() -> Next {
    next(after: nextStep())
  }

  /// What `step` (``nextStep()``'s, or ``receive(from:_:)``'s) calls for, as a `Next`: the
  /// output taken, or everything finished.
  @inlinable
  @inline(__always)
  internal mutating func next(after step: FanInStep) -> Next {
    switch step {
    case .idle: return .idle
    case .deliver: return .deliver(logic.takeReadyOutput())
    case .finish: return finishAll()
    }
  }

  /// ``nextDelivery()`` without forming its `Next`: on `deliver`, this thread owns delivery
  /// and the demand for the output is counted; the caller takes the output
  /// (`logic.takeReadyOutput()`) before it leaves the critical section. On `finish`, it calls
  /// ``finishAll()`` in the same section.
  @inlinable
  @inline(__always)
  internal mutating func nextStep() -> FanInStep {
    guard !isTerminated else { return .idle }
    if demand > 0 || (Logic.deliversOneBeyondDemand && !isOverdrawn), logic.hasOutput() {
      if demand > 0 {
        demand -= 1
      } else {
        isOverdrawn = true
      }
      isDelivering = true
      return .deliver
    }
    if logic.isDone(finished: finished) {
      return .finish
    }
    if demand == .none { logic.keepForLaterDemand() }
    return .idle
  }

  /// ``nextDelivery()``'s completion, out of line: in generic code the compiler did not
  /// specialise, its temporaries (the completion, this struct's own metadata to call
  /// ``releaseAll()``) were otherwise looked up in the runtime's cache on entry to every
  /// critical section that inlines ``nextDelivery()``, once per value.
  @inlinable
  @inline(never)
  internal mutating func finishAll() -> Next {
    Self.completing(.finished, cancelling: releaseAll())
  }

  /// The completion `completion`, cancelling `upstreams` first if any is left.
  ///
  /// Takes `upstreams` (moved into the box of the `indirect` case): borrowed, they were
  /// copied into it through `FanInUpstreams`' value witness.
  @inlinable
  internal static func completing(
    _ completion: Subscribers.Completion<Failure>, cancelling upstreams: consuming FanInUpstreams
  )
    -> Next
  {
    upstreams.isEmpty ? .completeOnly(completion) : .complete(completion, cancelling: upstreams)
  }

  /// Adds downstream's demand, paying back an output delivered beyond it first.
  @inlinable
  internal mutating func addDemand(_ more: Subscribers.Demand) {
    if isOverdrawn && more > 0 {
      isOverdrawn = false
      demand += more - 1
    } else {
      demand += more
    }
  }

  @inlinable
  internal mutating func releaseAll() -> FanInUpstreams {
    let cancelling = FanInUpstreams(
      a: upstreamA.take(), b: upstreamB.take(), c: upstreamC.take(), d: upstreamD.take())
    logic.removeAll()
    isTerminated = true
    return cancelling
  }
}

extension FanInState {
  /// The output a `deliver` step made ready, for specialised code: `FanInLogic.takeReadyOutput()`.
  @inlinable
  @inline(__always)
  internal mutating func takeReadyOutput() -> Logic.Output {
    logic.takeReadyOutput()
  }
}

extension FanInState: FanInStateMachine {
  @inlinable
  @inline(__always)
  internal mutating func takeReadyOutput(into output: UnsafeMutableRawPointer) {
    logic.takeReadyOutput(into: output)
  }
}
