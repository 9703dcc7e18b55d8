#if os(Linux) && !CONFLUENCE_LOCKED_FAST_PATHS && !CONFLUENCE_THREAD_SANITIZER
  import CConfluenceSystem
  import Synchronization

  /// A ``Lock`` biased to the thread that made it: that thread's sections take no atomic
  /// instruction until another thread takes the lock, which takes the bias away for good.
  ///
  /// For the state of a subscription that is almost always built, run and cancelled on one
  /// thread, where the lock's one compare-and-exchange is most of a section's cost (a
  /// build-and-drop level of `flatMap` runs six sections), and for a subject's, which is
  /// most often made and used on one thread too. Never for state that a scheduler's or a
  /// promise's thread takes by design: revoking the bias costs the other thread a
  /// process-wide barrier (0.2 µs with the process's other threads idle, 2 µs with one
  /// running, on the benchmark machine), once per lock. A biased lock, once taken over,
  /// still reads `owner` before each compare-and-exchange; two threads sending to one
  /// subject measured no slower for it (`contended-subject-2`, Benchmarks/RESULTS.md, the
  /// twenty-fourth and thirtieth parts).
  ///
  /// The protocol, the asymmetric handshake of `DeliveryGate` (ARCHITECTURE.md, "Lock-free
  /// protocols"; `LockModel` with `biased` checks it in every interleaving):
  ///
  /// - `owner`: the `confluence_thread_token()` of the thread the lock is biased to, or 0
  ///   (revoked, or never biased where the kernel has no process-wide barrier).
  /// - `inside`: 1 while that thread runs a section by the bias; stored by it alone.
  /// - The owner stores 1 to `inside`, then (a compiler barrier between) reads `owner`
  ///   again: still its token, it runs the section, and gives it back by storing 0 to
  ///   `inside`. Otherwise it stores 0 and takes `base` as any thread does.
  /// - Any other thread takes `base` first, so that one revokes at a time, and then, if
  ///   `owner` is still set, stores 0 to it, runs `membarrier`, and waits until `inside`
  ///   reads 0. The barrier stands for the fence the owner would need between its store and
  ///   its load: either its store of 1 is in memory now (and the revoker waits for the 0), or
  ///   its next load of `owner` comes after the barrier and reads 0 (and it takes `base`).
  ///
  /// Elsewhere (other platforms, the locked build, the thread sanitizer's build) it is
  /// ``Lock`` itself.
  @usableFromInline
  package struct BiasedLock: ~Copyable, @unchecked Sendable {
    // @unchecked Sendable: a lock is the synchronisation itself.

    /// The `confluence_thread_token()` of the thread the lock is biased to, or 0.
    @usableFromInline
    package let owner: Atomic<UInt>

    /// The lock every thread but the owner takes, and the owner too once the bias is gone.
    @usableFromInline
    package let base = Lock()

    /// 1 while the owner runs a section by the bias; stored by the owner only.
    @usableFromInline
    package let inside = Atomic<UInt32>(0)

    /// A lock biased to the calling thread (where the kernel has the process-wide barrier).
    ///
    /// Assign it in the owning class's initialiser rather than as the property's default
    /// value: a default value that reads the thread is a function the optimiser did not
    /// inline (13 instructions and a retain and release more per object in
    /// `just-build-drop`).
    @inlinable
    @inline(__always)
    package init() {
      owner = Atomic(confluence_lock_bias_token())
    }

    /// Takes the lock, as ``withLock(_:)`` does, for a critical section written out between
    /// this call and ``release(_:)``, which must be handed what this returned.
    @inlinable
    @inline(__always)
    package borrowing func acquire() -> Lock.Hold {
      if _slowPath(confluence_is_single_threaded()) { return .none }
      let me = confluence_thread_token()
      if _fastPath(owner.load(ordering: .relaxed) == me) {
        inside.store(1, ordering: .relaxed)
        confluence_compiler_barrier()
        if _fastPath(owner.load(ordering: .relaxed) == me) { return .biased }
        inside.store(0, ordering: .releasing)
      }
      if _slowPath(!base.tryTake()) { base.acquireContended() }
      if _slowPath(owner.load(ordering: .relaxed) != 0) { revokeBias() }
      return .taken
    }

    /// Lets go of the lock ``acquire()`` took; `hold` is what it returned.
    @inlinable
    @inline(__always)
    package borrowing func release(_ hold: Lock.Hold) {
      if _fastPath(hold.isBiased) {
        inside.store(0, ordering: .releasing)
        return
      }
      base.release(hold)
    }

    /// Runs `body` with the lock held and returns its result (as ``Lock/withLock(_:)``).
    @inlinable
    @inline(__always)
    package borrowing func withLock<Result>(_ body: () -> Result) -> Result {
      // Released after `body` rather than in a `defer`: the optimiser kept the `defer` as a
      // function of its own (15 instructions a section, three registers saved and restored,
      // where the release inlined is four). `body` cannot throw, so the release always runs.
      let hold = acquire()
      let result = body()
      release(hold)
      return result
    }

    /// This thread holds `base` while the lock is still biased to another thread: takes the
    /// bias away for good, and waits until the owner is out of any section it runs by it.
    @usableFromInline
    @inline(never)
    package borrowing func revokeBias() {
      owner.store(0, ordering: .relaxed)
      ProcessBarrier.synchronize()
      // The owner's section is short and never blocks, but the owner may have been
      // descheduled inside it: a few spins, then the processor is given up between looks.
      var spins = 0
      var backoff = Backoff()
      while inside.load(ordering: .acquiring) != 0 {
        if spins < 64 {
          spins += 1
          confluence_spin_pause()
        } else {
          backoff.pause()
        }
      }
    }
  }
#else
  /// ``Lock`` itself: only the Linux futex lock is biased (see the Linux build's
  /// `BiasedLock`).
  @usableFromInline
  package typealias BiasedLock = Lock
#endif
