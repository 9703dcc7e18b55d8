#if CONFLUENCE_THREAD_SANITIZER
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #endif
#else
  import CConfluenceSystem
  import Synchronization
#endif

// The project's one locking primitive.
//
// `Lock` is a futex lock of its own on Linux (see there: its uncontended release is a plain
// store; `BiasedLock` builds on it) and wraps `Synchronization.Mutex` elsewhere, and hands the critical section a plain
// closure, so that classes can keep their state in ordinary
// stored properties (usually a state-machine struct) and read or mutate them only inside
// `withLock`. `Mutex<State>` itself would demand that the protected state be `Sendable` or
// provably disconnected, which Combine's non-Sendable subscribers and values are not.
//
// Thread-sanitizer builds (`-Xswiftc -DCONFLUENCE_THREAD_SANITIZER`, as `.ci/run` does)
// use a heap-allocated pthread mutex instead: the standard library's Synchronization
// module is not instrumented, so the sanitizer cannot see the happens-before edges of
// Mutex's futex (or of the Linux lock's) and would report every lock-guarded access as a race. The pthread mutex is intercepted by
// the sanitizer, so the stress tests check how Confluence *uses* its locks.
//
// Rules for every user of `Lock` (ARCHITECTURE.md, "The contract every publisher keeps", rule 6),
// for a section inside `withLock` and one written out between `acquire()` and `release(_:)`
// (which a per-value path of unspecialised generic code uses, see there) alike:
// - never call downstream, a user closure, or a continuation inside a section;
// - never call `withLock` re-entrantly on the same lock (it is not recursive);
// - never start a thread inside `withLock` (while the process has one thread, sections run
//   without the mutex; debug builds trap if a second thread appears inside one).

/// A non-recursive mutual-exclusion lock guarding state stored beside it.
///
/// `package`-visible so that every module of this package (the test kit, the extras) uses
/// this one primitive.
@usableFromInline
package struct Lock: ~Copyable, @unchecked Sendable {
  // @unchecked Sendable: a mutex is the synchronisation itself.
  #if CONFLUENCE_THREAD_SANITIZER
    @usableFromInline
    package let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @inlinable
    package init() {
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      confluencePrecondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    @inlinable
    deinit {
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    }

    /// Takes the lock; see the other build's ``acquire()``.
    @inlinable
    package borrowing func acquire() -> Hold {
      pthread_mutex_lock(mutex)
      return .taken
    }

    /// Lets go of the lock ``acquire()`` took.
    @inlinable
    package borrowing func release(_ hold: Hold) {
      pthread_mutex_unlock(mutex)
    }
  #elseif os(Linux) && !CONFLUENCE_LOCKED_FAST_PATHS
    // A futex lock whose uncontended unlock is a plain store. `Synchronization.Mutex` on
    // Linux (a priority-inheriting futex) takes and gives the lock with a
    // compare-and-exchange each: two atomic read-modify-writes a section, about 13 ns on the
    // 2-core machine the benchmarks run on, where a build-and-drop pipeline runs six
    // sections a level. Here taking it is one compare-and-exchange and giving it back is a
    // release store and a load, fenced the way `DeliveryGate` is (ARCHITECTURE.md, "Lock-free
    // protocols": `LockModel` checks the protocol in every interleaving, and
    // `-DCONFLUENCE_LOCKED_FAST_PATHS` builds `Mutex` here instead):
    //
    // - `word`: 0 free, 1 held. Taken only by a compare-and-exchange from 0.
    // - `sleepers`: how many threads are about to sleep, or sleep, on `word`.
    // - A thread that cannot take the lock after spinning counts itself in `sleepers` (a
    //   read-modify-write, so it is in memory), runs the process-wide barrier
    //   (`membarrier`), and then sleeps on `word` only while `word` is 1 (the kernel checks,
    //   atomically with going to sleep), trying the compare-and-exchange again each time it
    //   wakes.
    // - Giving the lock back stores 0, then reads `sleepers`, and wakes one sleeper if any.
    //   Between the two, only a compiler barrier: the sleeper's `membarrier` stands for the
    //   full fence this thread would otherwise need, so either the store is in memory before
    //   the sleeper looks at `word` (and it does not sleep), or this thread's load comes after
    //   the sleeper counted itself (and it wakes it). Where the kernel has no `membarrier`, a
    //   full fence (`mfence`) sits between them instead.
    //
    // No priority inheritance, unlike `Mutex`: a section here never blocks and never calls
    // out (the rules above), so a holder is never kept from finishing by anything but the
    // scheduler.
    @usableFromInline
    package let word = Atomic<UInt32>(0)

    @usableFromInline
    package let sleepers = Atomic<UInt32>(0)

    @inlinable
    package init() {}

    /// Takes the lock, as ``withLock(_:)`` does, for a critical section written out between
    /// this call and ``release(_:)``, which must be handed what this returned. See the other
    /// build's ``acquire()`` for when to use it.
    @inlinable
    @inline(__always)
    package borrowing func acquire() -> Hold {
      if _slowPath(confluence_is_single_threaded()) { return .none }
      if _slowPath(!tryTake()) { acquireContended() }
      return .taken
    }

    /// Takes the word from free to held, if it is free: the one way the lock is taken.
    @inlinable
    @inline(__always)
    package borrowing func tryTake() -> Bool {
      word.compareExchange(expected: 0, desired: 1, successOrdering: .acquiring, failureOrdering: .relaxed).exchanged
    }

    /// Lets go of the lock ``acquire()`` took; `hold` is what it returned.
    @inlinable
    @inline(__always)
    package borrowing func release(_ hold: Hold) {
      // Matched rather than compared with `==`, which an unoptimised build calls through the
      // `Equatable` witness (about 70 instructions a section).
      guard case .taken = hold else { return Lock.checkReleaseWithoutMutex() }
      releaseWord()
    }

    /// Gives `word` back (see the protocol above).
    @inlinable
    @inline(__always)
    package borrowing func releaseWord() {
      word.store(0, ordering: .releasing)
      if _fastPath(ProcessBarrier.isAvailable) {
        confluence_compiler_barrier()
      } else {
        atomicMemoryFence(ordering: .sequentiallyConsistent)
      }
      if _slowPath(sleepers.load(ordering: .relaxed) != 0) {
        wakeOne()
      }
    }

    /// ``acquire()`` found the lock held: spins a little, then sleeps until it is given
    /// back (see the protocol above).
    @usableFromInline
    @inline(never)
    package borrowing func acquireContended() {
      for _ in 0..<64 {
        if word.load(ordering: .relaxed) == 0, tryTake() { return }
        confluence_spin_pause()
      }
      sleepers.wrappingAdd(1, ordering: .sequentiallyConsistent)
      if ProcessBarrier.isAvailable {
        ProcessBarrier.synchronize()
      }
      while !tryTake() {
        withWordAddress { confluence_futex_wait($0, 1) }
      }
      sleepers.wrappingSubtract(1, ordering: .relaxed)
    }

    /// Wakes one thread sleeping on the lock.
    @usableFromInline
    @inline(never)
    package borrowing func wakeOne() {
      withWordAddress { confluence_futex_wake_one($0) }
    }

    /// The address of `word`'s 32 bits, for the futex calls. (`Atomic` is not copyable and
    /// is laid out as its value, so the borrow is the stored word itself.)
    @inlinable
    package borrowing func withWordAddress(_ body: (UnsafeMutablePointer<UInt32>) -> Void) {
      withUnsafePointer(to: word) { atomic in
        body(UnsafeMutableRawPointer(mutating: atomic).assumingMemoryBound(to: UInt32.self))
      }
    }
  #else
    @usableFromInline
    package let mutex = Mutex<Void>(())

    @inlinable
    package init() {}

    /// Takes the lock, as ``withLock(_:)`` does, for a critical section written out between
    /// this call and ``release(_:)`` (which must be handed what this returned: `.taken`, or
    /// `.none` while the process had one thread). For a per-value path in
    /// generic code the compiler did not specialise, where a closure handed to
    /// ``withLock(_:)`` stays a function of its own that looks the state's generic metadata
    /// up again on every call; everywhere else, ``withLock(_:)``.
    @inlinable
    @inline(__always)
    package borrowing func acquire() -> Hold {
      if _slowPath(confluence_is_single_threaded()) { return .none }
      mutex._unsafeLock()
      return .taken
    }

    /// Lets go of the lock ``acquire()`` took; `hold` is what it returned.
    @inlinable
    @inline(__always)
    package borrowing func release(_ hold: Hold) {
      // Matched rather than compared with `==`, which an unoptimised build calls through the
      // `Equatable` witness (about 70 instructions a section).
      guard case .taken = hold else { return Lock.checkReleaseWithoutMutex() }
      mutex._unsafeUnlock()
    }
  #endif
}

extension Lock {
  /// How ``Lock/acquire()`` took the lock, for ``Lock/release(_:)``.
  @usableFromInline
  @frozen
  package enum Hold {
    /// Not at all: the process had one thread.
    case none
    /// By the mutex (on Linux, `word`).
    case taken
    /// By the bias of a `BiasedLock` biased to this thread (Linux only).
    case biased

    /// Whether the lock was taken by a `BiasedLock`'s bias: matched rather than compared
    /// with `==`, which an unoptimised build calls through the `Equatable` witness (about 70
    /// instructions a section).
    @inlinable
    @inline(__always)
    package var isBiased: Bool {
      if case .biased = self { true } else { false }
    }
  }

  /// Runs `body` with the lock held and returns its result.
  @inlinable
  @inline(__always)
  package borrowing func withLock<Result>(_ body: () -> Result) -> Result {
    // Locked and unlocked around `body` rather than through `Mutex.withLock`, whose
    // `sending` result needed a wrapper type: in generic code the compiler did not
    // specialise, every critical section then looked that wrapper's metadata up in the
    // runtime's cache (about 300 instructions). `body` cannot throw, so the unlock below
    // always runs.
    //
    // While the process has only ever had one thread (the C library's word for it, see
    // `confluence_is_single_threaded()`), nothing can contend, and the lock's atomic
    // instructions are skipped, as glibc skips them in its own mutexes. Only this thread
    // could start a second one, and a section's body calls nothing out (the rules above), so
    // none starts while a section runs unlocked; debug builds check that. The choice is made
    // once per section, so a section ends as it began. With several threads the test costs
    // four instructions a section (the flag is read through the GOT); `_slowPath` lays the
    // code out for that case, which is every app's with a dispatch queue.
    let acquired = acquire()
    defer { release(acquired) }
    return body()
  }

  #if !CONFLUENCE_THREAD_SANITIZER
    /// ``release(_:)`` of a section that ran without the mutex because the process had one
    /// thread: debug builds check that it still has one. (The debug configuration, not the
    /// optimisation level: this module is optimised in debug builds too, where `assert` would
    /// check nothing.)
    @inlinable
    @inline(__always)
    package static func checkReleaseWithoutMutex() {
      #if DEBUG
        confluencePrecondition(
          confluence_is_single_threaded(),
          "a thread was started inside a critical section, which ran without the mutex because the process had one thread"
        )
      #endif
    }
  #endif
}
