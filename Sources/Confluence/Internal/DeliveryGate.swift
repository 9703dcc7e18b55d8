import CConfluenceSystem
import Synchronization

#if !CONFLUENCE_LOCKED_FAST_PATHS
  /// Lets a subscriber call the closures it was given with no atomic read-modify-write and no
  /// fence per value, and still let go of them as soon as it ends — also when it is cancelled
  /// from another thread while a value is being delivered.
  ///
  /// The problem: a sink calls `receiveValue` for each value, and must release that closure
  /// (and whatever it captured) when it is cancelled, from any thread. Releasing it while a
  /// call into it is running on another thread would free memory in use. The usual answers
  /// cost every value something: a lock (Apple's sink), a retain of the closure per call, or a
  /// counter published with a full fence so that the canceller can see it.
  ///
  /// The gate instead notes, per value, that a delivery runs (`depth`, a plain store), and
  /// gives the subscriber an *owner*: the thread that delivers to it, claimed by the first
  /// delivery (or, with a plain store under the sink's lock, by the thread its subscription
  /// arrived on) and taken over (one compare-and-exchange) by a delivery on another thread,
  /// as when a serial dispatch queue moves between worker threads. The owner's deliveries use
  /// plain loads and stores only. Ending the gate
  /// swaps `owner` to `ended` (an atomic exchange) and then reads `depth`:
  /// - if the ender is the owner thread (the usual case: a cancel from inside or outside
  ///   `receiveValue` on the thread that delivers), its own stores are what it reads;
  /// - if there was no owner yet, deliveries took the fenced path (below), which pairs with
  ///   the exchange as in Dekker's protocol;
  /// - if another thread owns the gate, the ender first runs the kernel's process-wide
  ///   barrier (`membarrier`): every running thread executes a full fence, so either the
  ///   owner's `depth` store is visible now, or the owner's next read of `owner` sees `ended`
  ///   and it does not call the closure. That costs microseconds, once, on a cross-thread
  ///   cancel; a value costs nothing.
  /// Where the kernel offers no process-wide barrier, every delivery takes the fenced path:
  /// sequentially consistent stores and loads of `depth` and `owner`.
  ///
  /// Whoever sees the gate ended with no delivery running releases the closures: the ender,
  /// or else the outermost delivery, when it returns. Both may see it, so the duty is taken
  /// by moving `owner` from `ended` to `released`, which only one can do. An ender that
  /// knows no delivery runs — an event from upstream (a completion), or the owner thread
  /// outside any delivery — takes the duty as it ends, in the same exchange.
  ///
  /// Assumes what the contract promises: a publisher's events into one subscriber do not
  /// overlap, except re-entrantly on the same thread (hence a depth, not a flag).
  @usableFromInline
  internal struct DeliveryGate: ~Copyable {
    /// `owner` before any delivery claimed it.
    @usableFromInline static var noOwner: UInt { 0 }
    /// `owner` once the gate ended, before anyone took the duty to release the closures.
    @usableFromInline static var ended: UInt { 1 }
    /// `owner` once the gate ended and someone took the duty to release the closures.
    @usableFromInline static var released: UInt { 2 }

    /// `noOwner`, `ended`, `released`, or the `confluence_thread_token()` of the thread that
    /// delivers (a thread's token is an address: never 0, 1 or 2).
    @usableFromInline let owner = Atomic<UInt>(0)

    /// How many deliveries are running (more than one only re-entrantly, on one thread).
    /// Written only by delivering threads, one at a time.
    @usableFromInline let depth = Atomic<Int>(0)

    @inlinable
    init() {}

    /// Whether `owner` says the gate ended.
    @inlinable
    static func isEnded(_ owner: UInt) -> Bool { owner &- Self.ended <= Self.released &- Self.ended }

    /// Whether the gate has ended.
    @inlinable
    var hasEnded: Bool { Self.isEnded(owner.load(ordering: .acquiring)) }

    /// Whether someone took the duty to release the closures.
    @inlinable
    var hasReleased: Bool { owner.load(ordering: .acquiring) == Self.released }

    // MARK: Delivering

    /// Runs `body` unless the gate has ended. Returns whether the caller must now try to
    /// release the closures (``takeReleaseDuty()``): the gate ended while this, the
    /// outermost delivery, ran.
    ///
    /// The owner's path is a dozen instructions with one branch before and one after the
    /// call; everything else is out of line, and `body` is only ever called directly, so the
    /// caller builds no closure context for it.
    @inlinable
    @inline(__always)
    borrowing func deliver(_ body: () -> Void) -> Bool {
      let me = confluence_thread_token()
      let outer = depth.load(ordering: .relaxed)
      depth.store(outer &+ 1, ordering: .relaxed)
      confluence_compiler_barrier()
      if _fastPath(owner.load(ordering: .acquiring) == me) {
        body()
        return endOwnersDelivery()
      }
      return deliverFenced(outer: outer, me: me, body)
    }

    /// Ends a delivery (or a run, ``beginRun()``) that the owner thread began by raising
    /// `depth`; returns whether the caller must now try to release the closures: the gate
    /// ended during it, and it was the outermost delivery.
    ///
    /// Neither the outer depth nor the thread token is kept across the call it follows: both
    /// are read again, which costs two instructions and frees two callee-saved registers in
    /// the caller's loop.
    @inlinable
    @inline(__always)
    borrowing func endOwnersDelivery() -> Bool {
      let restored = depth.load(ordering: .relaxed) &- 1
      depth.store(restored, ordering: .releasing)
      confluence_compiler_barrier()
      // Still the owner: nothing ended the gate meanwhile. Otherwise it ended, and the
      // outermost delivery sees to the release.
      return _slowPath(owner.load(ordering: .acquiring) != confluence_thread_token()) && restored == 0
    }

    /// ``deliver(_:)`` when the calling thread does not own the gate: out of line, with
    /// `body` passed as a closure (no allocation: it does not escape), so that the owner's
    /// path keeps nothing of this one in the caller's registers.
    @usableFromInline
    @inline(never)
    borrowing func deliverFenced(outer: Int, me: UInt, _ body: () -> Void) -> Bool {
      let path = beginFenced(outer: outer, me: me)
      if path != .skipped { body() }
      return endFenced(outer: outer, path: path)
    }

    // MARK: Runs

    /// How ``beginRun()`` went.
    @usableFromInline
    internal enum RunStart {
      /// The run is open for the thread whose token this is: call the closure per value
      /// while ``isOpenInRun(for:)`` holds, then ``endOwnersDelivery()``.
      case running(UInt)
      /// No run: deliver value by value. `releaseDuty`: the gate ended while the run was
      /// being opened, and the caller must try to release the closures
      /// (``takeReleaseDuty()``), as the outermost delivery would.
      case declined(releaseDuty: Bool)
    }

    /// Opens a run: many values delivered as one delivery, for an emitter that loops over
    /// its values on one thread (a sequence with unlimited demand). Raises `depth` once for
    /// the whole run, so that per value only ``isOpenInRun(for:)`` is left (one load and one
    /// compare, asked once or twice per value) instead of the dozen instructions of
    /// ``deliver(_:)``.
    ///
    /// A run is a delivery: it claims the gate for its thread as the first delivery does (or
    /// takes it over from a thread that delivered before), with the same exchange. Declined
    /// when the gate has ended, or when no thread can own it (no process-wide barrier): the
    /// caller then delivers value by value. A cancel from another thread during the run sees
    /// `depth` raised and leaves the release to the run's end, as it does for one delivery;
    /// the run stops calling the closure once it sees the end.
    @inlinable
    @inline(__always)
    borrowing func beginRun() -> RunStart {
      let me = confluence_thread_token()
      let outer = depth.load(ordering: .relaxed)
      depth.store(outer &+ 1, ordering: .relaxed)
      confluence_compiler_barrier()
      if _fastPath(owner.load(ordering: .acquiring) == me) { return .running(me) }
      return beginRunClaiming(outer: outer, me: me)
    }

    /// ``beginRun()`` when the calling thread does not own the gate yet; `depth` is already
    /// `outer + 1`.
    @usableFromInline
    @inline(never)
    borrowing func beginRunClaiming(outer: Int, me: UInt) -> RunStart {
      if claim(for: me) { return .running(me) }
      depth.store(outer, ordering: .sequentiallyConsistent)
      // Ended meanwhile, by a canceller that may have seen `depth` raised: the duty would
      // have been this delivery's.
      return .declined(releaseDuty: outer == 0 && Self.isEnded(owner.load(ordering: .sequentiallyConsistent)))
    }

    /// Whether a run that ``beginRun()`` opened for the thread `me` may go on: the gate has
    /// not ended. The token is read once per run (a synchronous loop stays on its thread),
    /// so this is one load and one compare.
    @inlinable
    @inline(__always)
    func isOpenInRun(for me: UInt) -> Bool {
      owner.load(ordering: .acquiring) == me
    }

    /// How a delivery that did not find its thread the owner goes on.
    @usableFromInline
    internal enum FencedPath {
      /// It claimed the gate for its thread: the owner's rules hold.
      case claimed
      /// Another thread owns the gate, or no thread can: sequentially consistent accesses.
      case fenced
      /// The gate has ended: no call.
      case skipped
    }

    /// The first delivery, a delivery on another thread than the owner (each claims the
    /// gate for its thread when the process-wide barrier exists), a delivery after the end.
    /// `depth` is already `outer + 1`.
    ///
    /// Taking the gate over from another owner is safe because events do not overlap: the
    /// previous owner is not delivering, and its last stores reached this thread with the
    /// event. An ender racing the takeover either ends the gate first (the exchange here
    /// fails) or sees this thread as the owner (and synchronises with it).
    @usableFromInline
    @inline(never)
    borrowing func beginFenced(outer: Int, me: UInt) -> FencedPath {
      if claim(for: me) { return .claimed }
      depth.store(outer &+ 1, ordering: .sequentiallyConsistent)
      return Self.isEnded(owner.load(ordering: .sequentiallyConsistent)) ? .skipped : .fenced
    }

    /// Claims the gate for the thread `me` (or takes it over from the thread that delivered
    /// before), for a delivery or a run that has already raised `depth`; returns whether this
    /// thread owns the gate now. Not when the gate has ended, nor where no thread can own it
    /// (no process-wide barrier). `depth` was raised before the exchange and `owner` is read
    /// again after it: from here the owner's rules hold.
    @inlinable
    @inline(__always)
    borrowing func claim(for me: UInt) -> Bool {
      let current = owner.load(ordering: .relaxed)
      guard !Self.isEnded(current), ProcessBarrier.isAvailable else { return false }
      _ = owner.compareExchange(expected: current, desired: me, ordering: .sequentiallyConsistent)
      return owner.load(ordering: .acquiring) == me
    }

    /// Ends a delivery that began with ``beginFenced(outer:me:)``; returns whether the caller
    /// must now try to release the closures.
    @usableFromInline
    @inline(never)
    borrowing func endFenced(outer: Int, path: FencedPath) -> Bool {
      if path == .claimed {
        depth.store(outer, ordering: .releasing)
        confluence_compiler_barrier()
        return outer == 0 && owner.load(ordering: .acquiring) == Self.ended
      }
      depth.store(outer, ordering: .sequentiallyConsistent)
      return outer == 0 && owner.load(ordering: .sequentiallyConsistent) == Self.ended
    }

    /// Claims the gate for the calling thread if nobody has: for a delivery the caller is
    /// about to make itself (a direct delivery). A plain store: call it where no delivery
    /// can claim the gate and no cancel can end it meanwhile (the sink's lock, while the
    /// sink has no subscription).
    @inlinable
    borrowing func claimUnderLock() {
      if owner.load(ordering: .relaxed) == Self.noOwner, ProcessBarrier.isAvailable {
        owner.store(confluence_thread_token(), ordering: .relaxed)
      }
    }

    // MARK: Ending

    /// How an end went.
    @usableFromInline
    internal enum Ending {
      /// The gate had ended already: nothing to do.
      case alreadyEnded
      /// Ended; the caller holds the duty to release the closures (after any last call it
      /// makes through ``deliverLast(_:)``).
      case releaseDuty
      /// Ended; a delivery running on this thread releases them when it returns.
      case deliveryReleases
      /// Ended by a cancel that cannot know whether a delivery runs: call
      /// ``settle(previousOwner:)`` after leaving the lock.
      case settle(previousOwner: UInt)
    }

    /// Ends the gate from the side that delivers: a completion, or the end of a direct
    /// delivery. Events from upstream do not overlap, so `depth` is exact here, whichever
    /// thread owns the gate.
    @inlinable
    @inline(__always)
    borrowing func endFromUpstream() -> Ending {
      let running = depth.load(ordering: .relaxed) != 0
      guard endUnlessEnded(to: running ? Self.ended : Self.released) != nil else { return .alreadyEnded }
      return running ? .deliveryReleases : .releaseDuty
    }

    /// Ends the gate for a cancel, from any thread.
    @inlinable
    borrowing func endForCancel() -> Ending {
      let me = confluence_thread_token()
      // On the owner thread `depth` is exact: outside any delivery, take the duty at once
      // (unless another thread took the gate over meanwhile).
      if owner.load(ordering: .relaxed) == me, depth.load(ordering: .relaxed) == 0,
        owner.compareExchange(expected: me, desired: Self.released, ordering: .sequentiallyConsistent).exchanged
      {
        return .releaseDuty
      }
      guard let previous = endUnlessEnded(to: Self.ended) else { return .alreadyEnded }
      // Still this thread's: a delivery on this thread's stack raised `depth`.
      if previous == me { return .deliveryReleases }
      return .settle(previousOwner: previous)
    }

    /// Moves `owner` to `state` unless it has ended; returns what it was, or `nil` if it had
    /// ended (then nothing changed). A loop, because a delivery may claim the gate
    /// meanwhile.
    @inlinable
    @inline(__always)
    borrowing func endUnlessEnded(to state: UInt) -> UInt? {
      var current = owner.load(ordering: .relaxed)
      while true {
        if Self.isEnded(current) { return nil }
        let (exchanged, original) = owner.compareExchange(
          expected: current, desired: state, ordering: .sequentiallyConsistent)
        if exchanged { return current }
        current = original
      }
    }

    /// After ``endForCancel()`` returned `.settle`: whether the caller took the duty to
    /// release the closures (no delivery runs); if one does, it sees to the release when it
    /// returns. Not under a lock: it may wait for the process-wide barrier.
    @inlinable
    borrowing func settle(previousOwner: UInt) -> Bool {
      if previousOwner != Self.noOwner {
        ProcessBarrier.synchronize()
      }
      return depth.load(ordering: .sequentiallyConsistent) == 0 && takeReleaseDuty()
    }

    /// Takes the duty to release the closures, if nobody has: true for exactly one caller.
    @inlinable
    borrowing func takeReleaseDuty() -> Bool {
      owner.compareExchange(expected: Self.ended, desired: Self.released, ordering: .sequentiallyConsistent)
        .exchanged
    }

    /// Ends the gate, with the duty to release the closures taken, when no other thread can
    /// see it and no delivery runs (`Subscribers.Sink.receiveUnshared(_:then:)`): a plain
    /// store.
    @inlinable
    borrowing func endUnshared() {
      owner.store(Self.released, ordering: .relaxed)
    }

    /// Runs the last call through the gate after it ended (the completion), counted so that
    /// a cancel from inside it does not release the closures under it. Only on the side that
    /// delivers, after ``endFromUpstream()``.
    @inlinable
    borrowing func deliverLast(_ body: () -> Void) {
      let outer = depth.load(ordering: .relaxed)
      depth.store(outer &+ 1, ordering: .relaxed)
      confluence_compiler_barrier()
      body()
      confluence_compiler_barrier()
      depth.store(outer, ordering: .releasing)
    }
  }
#endif

/// The kernel's process-wide memory barrier, when it has one.
@usableFromInline
internal enum ProcessBarrier {
  /// Whether ``synchronize()`` works here: registered once per process, at first use;
  /// one load after that.
  @inlinable
  static var isAvailable: Bool { confluence_process_barrier_available() }

  /// Every thread of the process that is running now executes a full fence before this
  /// returns. Only when ``isAvailable``.
  @usableFromInline
  static func synchronize() {
    let succeeded = confluence_process_barrier()
    confluencePrecondition(succeeded, "membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed after registering")
  }
}
