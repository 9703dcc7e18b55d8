import Synchronization

/// What `Multicast` subscribes to its subject for each downstream subscriber.
///
/// Apple's rules, as the conformance suite records them: the downstream sees this object
/// as its subscription (described as "Multicast", an empty mirror) from the moment the
/// subject subscribes it; a second subscription is cancelled; the downstream's demand,
/// whether asked up front or returned from `receive(_:)`, is requested from the subject
/// as it comes (so `receive(_:)` itself returns `.none`); after a completion or a cancel
/// nothing more reaches the downstream, and the subject's subscription is let go of at once
/// (a subject written outside Confluence may hand out a subscription that keeps its
/// subscriber until cancelled, also after completing it; keeping that subscription would
/// keep the relay, its downstream, the subject and the source alive for good). It lets go of
/// its downstream at the same moments.
@usableFromInline
internal final class MulticastSubscriber<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  /// The downstream, retained by hand (released once, at the end or in `deinit`), so that
  /// a value reaches it through a reference that costs no retain, and the relay can let go
  /// of it while it lives on.
  @usableFromInline internal let downstreamBox: Unmanaged<MulticastDownstreamBox<Downstream>>
  @usableFromInline internal let lock = Lock()
  // Guarded by `lock`: whether `downstreamBox` was released.
  @exclusivity(unchecked) @usableFromInline internal var downstreamReleased = false
  /// How many calls into the downstream are running (more than one only re-entrantly):
  /// changed by the delivering thread alone (the subject serialises its events) with a
  /// plain load and store. The end releases the downstream at once if none is running,
  /// else the outermost call does when it returns (see `Subscribers.Sink`, which lets go
  /// of its closures the same way).
  ///
  /// A cancel from another thread must not read this before a delivery's raise of it is
  /// visible, or it would release the downstream under that call: the delivering thread
  /// raises it and then reads ``isLive``, the canceller clears ``isLive`` and then reads
  /// this, and without a full fence on both sides each could read the other's old value.
  /// The delivering side stays fence-free: the canceller runs the kernel's process-wide
  /// barrier (`ProcessBarrier`) between the two, so every running thread executes a full
  /// fence — a delivery that raised the count before it is seen, one that raises it after
  /// reads ``isLive`` as `false`. Where the kernel has no such barrier, deliveries use
  /// sequentially consistent accesses instead (``fencesDeliveries``).
  @usableFromInline internal let deliveries = Atomic<Int>(0)
  /// Whether there is no process-wide barrier here, so that deliveries count with
  /// sequentially consistent accesses. `!ProcessBarrier.isAvailable`, read once, at `init`:
  /// asked per value, the process-wide flag costs four more instructions per subscriber and
  /// value (`share-10`: 1,551 → 1,595 per send).
  @usableFromInline internal let fencesDeliveries: Bool
  @usableFromInline internal let releaseRequested = Atomic<Bool>(false)
  // Guarded by `lock`.
  @exclusivity(unchecked) @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  // Mirrors whether `status` is `.subscribed`, so that a value needs no lock round trip.
  @usableFromInline internal let isLive = Atomic<Bool>(false)
  /// Whether the subject is one of Confluence's (its subscription a `SubjectConduit`): written
  /// once, before ``isLive`` is first set (which publishes it), so a value reads it without
  /// the lock. Its conduit adds demand returned from `receive(_:)`
  /// exactly as it adds demand requested, so the relay returns it rather than making a
  /// separate request: the same effect, without a call through `any Subscription` per
  /// value. Any other subject is asked through `request(_:)`, as Apple's relay does.
  @exclusivity(unchecked) @usableFromInline internal nonisolated(unsafe) var returnsDemandToConduit = false

  @inlinable
  internal init(downstream: Downstream) {
    downstreamBox = .passRetained(MulticastDownstreamBox(downstream))
    fencesDeliveries = !ProcessBarrier.isAvailable
  }

  @inlinable
  deinit {
    if !downstreamReleased { downstreamBox.release() }
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard status.accept(subscription) else { return false }
      returnsDemandToConduit = subscription is SubjectConduit<Input, Failure>
      isLive.store(true, ordering: .releasing)
      return true
    }
    guard accepted else {
      subscription.cancel()
      return
    }
    let fenced = fencesDeliveries
    let depth = beginDelivery(fenced: fenced)
    downstreamBox._withUnsafeGuaranteedRef { $0.downstream.receive(subscription: self) }
    endDelivery(depth, fenced: fenced)
  }

  /// Always inlined: one call into the downstream per value (Benchmarks/README.md, "Long
  /// pipelines", point 7), so the subject's handler runs the relay and the chain behind it
  /// as one function.
  @inlinable
  @inline(__always)
  internal func receive(_ input: Input) -> Subscribers.Demand {
    #if CONFLUENCE_LOCKED_FAST_PATHS
      return receiveLocked(input)
    #else
      if _slowPath(fencesDeliveries) { return receiveFenced(input) }
      return receive(input, fenced: false)
    #endif
  }

  #if CONFLUENCE_LOCKED_FAST_PATHS
    /// ``receive(_:)`` in the differential check's build: `isLive` is read and the count
    /// raised in one critical section, so a cancel (which clears the one and reads the
    /// other under the same lock) needs no barrier.
    @inlinable
    internal func receiveLocked(_ input: Input) -> Subscribers.Demand {
      let depth = lock.withLock { () -> Int? in
        guard isLive.load(ordering: .relaxed) else { return nil }
        let depth = deliveries.load(ordering: .relaxed)
        deliveries.store(depth &+ 1, ordering: .relaxed)
        return depth
      }
      guard let depth else { return .none }
      let more = downstreamBox._withUnsafeGuaranteedRef { $0.downstream.receive(input) }
      endDelivery(depth, fenced: true)
      if returnsDemandToConduit { return more }
      if more != .none {
        lock.withLock { status }.requestAndRelease(more)
      }
      return .none
    }
  #endif

  /// ``receive(_:)`` where there is no process-wide barrier: out of line, so that the usual
  /// path keeps one check of ``fencesDeliveries`` per value.
  @usableFromInline
  @inline(never)
  internal func receiveFenced(_ input: Input) -> Subscribers.Demand {
    receive(input, fenced: true)
  }

  /// A value, counted with sequentially consistent accesses if `fenced`.
  @inlinable
  @inline(__always)
  internal func receive(_ input: Input, fenced: Bool) -> Subscribers.Demand {
    let depth = beginDelivery(fenced: fenced)
    guard fenced ? isLive.load(ordering: .sequentiallyConsistent) : isLive.load(ordering: .acquiring) else {
      endDelivery(depth, fenced: fenced)
      return .none
    }
    let more = downstreamBox._withUnsafeGuaranteedRef { $0.downstream.receive(input) }
    endDelivery(depth, fenced: fenced)
    if returnsDemandToConduit { return more }
    // The returned demand is requested from the subject (Apple's rule), unless the
    // subscription ended meanwhile.
    if more != .none {
      lock.withLock { status }.requestAndRelease(more)
    }
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    guard
      case .subscribed = lock.withLock({ () -> SubscriptionStatus in
        isLive.store(false, ordering: .releasing)
        return status.take()
      })
    else { return }
    let fenced = fencesDeliveries
    let depth = beginDelivery(fenced: fenced)
    downstreamBox._withUnsafeGuaranteedRef { $0.downstream.receive(completion: completion) }
    #if CONFLUENCE_LOCKED_FAST_PATHS
      lock.withLock { releaseRequested.store(true, ordering: .relaxed) }
    #else
      releaseRequested.store(true, ordering: .releasing)
    #endif
    endDelivery(depth, fenced: fenced)
  }

  /// Marks a call into the downstream as running; returns the depth to restore.
  /// `fenced`: ``fencesDeliveries``.
  @inlinable
  @inline(__always)
  internal func beginDelivery(fenced: Bool) -> Int {
    #if CONFLUENCE_LOCKED_FAST_PATHS
      return lock.withLock {
        let depth = deliveries.load(ordering: .relaxed)
        deliveries.store(depth &+ 1, ordering: .relaxed)
        return depth
      }
    #else
      let depth = deliveries.load(ordering: .relaxed)
      if _fastPath(!fenced) {
        deliveries.store(depth &+ 1, ordering: .relaxed)
      } else {
        deliveries.store(depth &+ 1, ordering: .sequentiallyConsistent)
      }
      return depth
    #endif
  }

  /// Marks the call as over; the outermost one lets go of the downstream if the relay
  /// ended during it.
  @inlinable
  @inline(__always)
  internal func endDelivery(_ depth: Int, fenced: Bool) {
    #if CONFLUENCE_LOCKED_FAST_PATHS
      let due = lock.withLock { () -> Bool in
        deliveries.store(depth, ordering: .relaxed)
        return depth == 0 && releaseRequested.load(ordering: .relaxed)
      }
      if due { releaseDownstream() }
    #else
      if _fastPath(!fenced) {
        deliveries.store(depth, ordering: .releasing)
        if depth == 0, releaseRequested.load(ordering: .acquiring) { releaseDownstream() }
      } else {
        deliveries.store(depth, ordering: .sequentiallyConsistent)
        if depth == 0, releaseRequested.load(ordering: .sequentiallyConsistent) { releaseDownstream() }
      }
    #endif
  }

  /// Lets go of the downstream, once.
  @usableFromInline
  internal func releaseDownstream() {
    let release = lock.withLock { () -> Bool in
      defer { downstreamReleased = true }
      return !downstreamReleased
    }
    if release { downstreamBox.release() }
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    lock.withLock { status }.requestAndRelease(demand)
  }

  @inlinable
  internal func cancel() {
    #if CONFLUENCE_LOCKED_FAST_PATHS
      // The differential check's build: the count is read in the critical section that
      // ends the relay, which every delivery's raise of it is ordered with.
      var running = false
      let ended = lock.withLock { () -> SubscriptionStatus in
        isLive.store(false, ordering: .relaxed)
        let previous = status.take()
        if case .subscribed = previous {
          releaseRequested.store(true, ordering: .relaxed)
          running = deliveries.load(ordering: .relaxed) != 0
        }
        return previous
      }
      guard case .subscribed = ended else { return }
      ended.cancelSubscription()
      if !running { releaseDownstream() }
    #else
      let previous = lock.withLock { () -> SubscriptionStatus in
        isLive.store(false, ordering: .sequentiallyConsistent)
        return status.take()
      }
      guard case .subscribed = previous else { return }
      previous.cancelSubscription()
      // Let go of the downstream: at once, or when the call into it running now returns.
      // The barrier makes a delivery's count visible here, or its check of `isLive` see
      // `false` (see `deliveries`); a delivery that ends meanwhile sees the request.
      releaseRequested.store(true, ordering: .sequentiallyConsistent)
      if !fencesDeliveries { ProcessBarrier.synchronize() }
      if deliveries.load(ordering: .sequentiallyConsistent) == 0 {
        releaseDownstream()
      }
    #endif
  }

  @usableFromInline internal var description: String { "Multicast" }

  @usableFromInline internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline internal var playgroundDescription: Any { description }
}

/// A multicast relay's downstream, in an object of its own so that the relay can let go of
/// it at the end and reach it, meanwhile, through a reference that costs no retain.
@usableFromInline
internal final class MulticastDownstreamBox<Downstream: Subscriber> {
  @usableFromInline internal let downstream: Downstream

  @inlinable
  internal init(_ downstream: Downstream) {
    self.downstream = downstream
  }
}
