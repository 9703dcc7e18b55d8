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
// `Lock` wraps `Synchronization.Mutex` (a futex on Linux, cheap when uncontended) and hands the
// critical section a plain closure, so that classes can keep their state in ordinary
// stored properties (usually a state-machine struct) and read or mutate them only inside
// `withLock`. `Mutex<State>` itself would demand that the protected state be `Sendable` or
// provably disconnected, which Combine's non-Sendable subscribers and values are not.
//
// Thread-sanitizer builds (`-Xswiftc -DCONFLUENCE_THREAD_SANITIZER`, as `.ci/run` does)
// use a heap-allocated pthread mutex instead: the standard library's Synchronization
// module is not instrumented, so the sanitizer cannot see Mutex's happens-before edges and
// would report every lock-guarded access as a race. The pthread mutex is intercepted by
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
      precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    @inlinable
    deinit {
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    }

    /// Runs `body` with the lock held and returns its result.
    @inlinable
    package borrowing func withLock<Result>(_ body: () -> Result) -> Result {
      let acquired = acquire()
      defer { release(acquired) }
      return body()
    }

    /// Takes the lock; see the other build's ``acquire()``.
    @inlinable
    package borrowing func acquire() -> Bool {
      pthread_mutex_lock(mutex)
      return true
    }

    /// Lets go of the lock ``acquire()`` took.
    @inlinable
    package borrowing func release(_ acquired: Bool) {
      pthread_mutex_unlock(mutex)
    }
  #else
    @usableFromInline
    package let mutex = Mutex<Void>(())

    @inlinable
    package init() {}

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
      // `confluence_is_single_threaded()`), nothing can contend, and the mutex's two atomic
      // read-modify-writes (about 13 ns a section on the 2-core machine the benchmarks run
      // on) are skipped, as glibc skips them in its own mutexes. Only this thread could
      // start a second one, and a section's body calls nothing out (the rules above), so
      // none starts while a section runs unlocked; debug builds check that. The choice is
      // made once per section, so a section ends as it began. With several threads the test
      // costs four instructions a section (the flag is read through the GOT); `_slowPath`
      // lays the code out for that case, which is every app's with a dispatch queue.
      let acquired = acquire()
      defer { release(acquired) }
      return body()
    }

    /// Takes the lock, as ``withLock(_:)`` does, for a critical section written out between
    /// this call and ``release(_:)`` (which must be handed what this returned: whether the
    /// mutex was taken, not while the process had one thread). For a per-value path in
    /// generic code the compiler did not specialise, where a closure handed to
    /// ``withLock(_:)`` stays a function of its own that looks the state's generic metadata
    /// up again on every call; everywhere else, ``withLock(_:)``.
    @inlinable
    @inline(__always)
    package borrowing func acquire() -> Bool {
      if _slowPath(confluence_is_single_threaded()) { return false }
      mutex._unsafeLock()
      return true
    }

    /// Lets go of the lock ``acquire()`` took; `acquired` is what it returned.
    @inlinable
    @inline(__always)
    package borrowing func release(_ acquired: Bool) {
      guard acquired else {
        assert(
          confluence_is_single_threaded(),
          "a thread was started inside a critical section, which ran without the mutex because the process had one thread"
        )
        return
      }
      mutex._unsafeUnlock()
    }
  #endif
}
