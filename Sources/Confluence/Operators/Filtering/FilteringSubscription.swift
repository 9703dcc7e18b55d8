import Synchronization

/// The subscription of the filter-like operators that are their own subscription
/// (`tryFilter`, `tryMap`, `removeDuplicates`, `drop(while:)`, `prefix(while:)`,
/// `output(in:)`, …), generic over the operator's per-value ``FilteringLogic``.
///
/// Values are passed without taking a lock: upstream serialises them. Whether the
/// subscription is live is mirrored in one atomic byte (``phase``), read once per value; the
/// lock guards only the upstream subscription. What happens at the edges (before the
/// subscription, after the end) is the logic's ``FilteringEdges``.
///
/// The invariant of ``phase`` (every interleaving checked by `FilteringPhaseModel` in
/// `Tests/ConfluenceInterleavingTests`): it changes only inside `lock`, in the critical
/// section that changes `status`, and always to what `status` becomes (``live`` with
/// `.subscribed`, ``ended`` with `.terminal`), so the value path, which reads it without the
/// lock, sees a status that held at some instant between its call and its read. It is
/// ``live`` before `downstream.receive(subscription:)` is called, so a value that
/// downstream's first request makes upstream send at once is taken; it is ``ended`` before
/// `cancel()` releases the lock, so a value whose read comes after `cancel()` returned is
/// outside the live span (dropped, unless the logic's edges pass such values on): only the
/// value already past its read goes on as a live one. The completion, the operator's own
/// termination and a cancel decide under `lock` which of them ends the subscription, so
/// downstream gets at most one completion, and none after a cancel that came first. With
/// `CONFLUENCE_LOCKED_FAST_PATHS` the value path reads the phase under `lock` instead.
@usableFromInline
internal final class FilteringSubscription<Logic: FilteringLogic, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Logic.Output, Downstream.Failure == Logic.Failure {
  @usableFromInline internal typealias Input = Logic.Input
  @usableFromInline internal typealias Failure = Logic.UpstreamFailure

  @usableFromInline
  internal let downstream: Downstream

  /// Touched only from upstream's serialised `receive(_:)` (and the mirror).
  @usableFromInline
  @exclusivity(unchecked)
  internal var logic: Logic

  @usableFromInline
  internal let lock: BiasedLock

  // Guarded by `lock`.
  @usableFromInline
  internal var status = SubscriptionStatus.awaitingSubscription

  #if CONFLUENCE_LOCKED_FAST_PATHS
    /// `status` as one byte for the value path: ``awaiting``, ``live`` or ``ended``
    /// (guarded by `lock`).
    @usableFromInline
    @exclusivity(unchecked)
    internal var lockedPhase: UInt8 = 0
  #else
    /// `status` as one byte for the value path: ``awaiting``, ``live`` or ``ended``. Written
    /// only under `lock` (with `status`), read without it.
    @usableFromInline
    internal let phase = Atomic<UInt8>(0)
  #endif

  @usableFromInline internal static var awaiting: UInt8 { 0 }
  @usableFromInline internal static var live: UInt8 { 1 }
  @usableFromInline internal static var ended: UInt8 { 2 }

  @inlinable
  internal init(downstream: Downstream, logic: Logic) {
    lock = BiasedLock()
    self.downstream = downstream
    self.logic = logic
  }

  /// Sets the phase; called inside `lock`, with `status` changed in the same section.
  @inlinable
  @inline(__always)
  internal func publishPhase(_ value: UInt8) {
    #if CONFLUENCE_LOCKED_FAST_PATHS
      lockedPhase = value
    #else
      phase.store(value, ordering: .releasing)
    #endif
  }

  /// The phase, for the value path (and the mirror): called without `lock` held.
  @inlinable
  @inline(__always)
  internal func readPhase() -> UInt8 {
    #if CONFLUENCE_LOCKED_FAST_PATHS
      lock.withLock { lockedPhase }
    #else
      phase.load(ordering: .acquiring)
    #endif
  }

  // MARK: Subscriber (upstream side)

  @inlinable
  internal func receive(subscription: Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard status.accept(subscription) else { return false }
      publishPhase(Self.live)
      return true
    }
    guard accepted else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    let current = readPhase()
    if current != Self.live {
      if current == Self.awaiting, Logic.edges.trapsBeforeSubscription {
        confluencePreconditionFailure("\(Logic.name) received a value before its subscription")
      }
      if !Logic.edges.processesValuesOutsideLiveSpan { return .none }
    }
    // Read before the logic runs the user's closure, as `filter`'s subscriber does
    // (Benchmarks/README.md, "Long pipelines", point 10); borrowed in code not specialised
    // for the downstream, where a copy is a value-witness call (see `FilterSubscriber`).
    if _isConcrete(Downstream.self) {
      let next = downstream
      return conclude(logic.receive(input, to: next))
    }
    return conclude(logic.receive(input, to: downstream))
  }

  /// What `receive(_:)` returns upstream once the logic has decided (and published).
  @inlinable
  @inline(__always)
  internal func conclude(_ verdict: FilteringVerdict) -> Subscribers.Demand {
    switch verdict {
    case .published(let demand):
      return demand
    case .skipped:
      return .max(1)
    case .publishedAndFinished(let demand):
      end(failingWith: nil)
      return demand
    case .finished:
      end(failingWith: nil)
      return .none
    case .failed(let error):
      end(failingWith: error)
      return .none
    }
  }

  /// ``terminate(with:)`` for a verdict that ends the stream. Kept out of line: inlined into
  /// `receive(_:)`, code the compiler did not specialise looked the metadata of
  /// `Subscribers.Completion<Failure>` up on every value, ending or not.
  @inlinable
  @inline(never)
  internal func end(failingWith error: (any Error)?) {
    if let error {
      terminate(with: .failure(logic.failure(error)))
    } else {
      terminate(with: .finished)
    }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    let wasStatus = lock.withLock { () -> UInt8 in
      switch status {
      case .subscribed:
        status = .terminal
        publishPhase(Self.ended)
        return Self.live
      case .awaitingSubscription:
        return Self.awaiting
      case .terminal:
        return Self.ended
      }
    }
    if wasStatus == Self.awaiting, Logic.edges.trapsBeforeSubscription {
      confluencePreconditionFailure("\(Logic.name) received a completion before its subscription")
    }
    guard wasStatus == Self.live else { return }
    switch completion {
    case .finished:
      downstream.receive(completion: .finished)
    case .failure(let error):
      downstream.receive(completion: .failure(logic.convert(error)))
    }
  }

  /// Ends the subscription on the operator's own account: cancels upstream and completes.
  @inlinable
  internal func terminate(with completion: Subscribers.Completion<Downstream.Failure>) {
    let upstream = lock.withLock { () -> Subscription? in
      guard case .subscribed = status else { return nil }
      publishPhase(Self.ended)
      return status.terminate()
    }
    if let upstream {
      upstream.cancel()
      downstream.receive(completion: completion)
    } else if Logic.edges.reportsOwnFailureWhenDetached, case .failure = completion {
      downstream.receive(completion: completion)
    }
  }

  // MARK: Subscription (downstream side)

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    let (subscription, isAwaiting) = lock.withLock { () -> (Subscription?, Bool) in
      if case .awaitingSubscription = status { return (nil, true) }
      return (status.subscription, false)
    }
    if isAwaiting, Logic.edges.trapsBeforeSubscription {
      confluencePreconditionFailure("\(Logic.name) was asked for demand before its subscription")
    }
    subscription?.request(demand)
  }

  @inlinable
  internal func cancel() {
    lock.withLock { () -> Subscription? in
      switch status {
      case .subscribed:
        publishPhase(Self.ended)
        return status.terminate()
      case .awaitingSubscription:
        // Apple's strict family remembers a cancel that comes before the subscription
        // (and cancels the subscription when it arrives); the others forget it.
        if Logic.edges.remembersEarlyCancel {
          publishPhase(Self.ended)
          status = .terminal
        }
        return nil
      case .terminal:
        return nil
      }
    }?.cancel()
  }

  // MARK: Descriptions

  @usableFromInline
  internal var description: String { Logic.name }

  @usableFromInline
  internal var customMirror: Mirror {
    let status: String
    switch readPhase() {
    case Self.awaiting: status = "awaitingSubscription"
    case Self.live: status = "subscribed"
    default: status = "terminal"
    }
    return Mirror(self, children: logic.reflectedChildren(downstream: downstream, status: status))
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
