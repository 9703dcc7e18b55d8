import Synchronization

// The project's one locking primitive.
//
// `Lock` wraps `Synchronization.Mutex` (a futex on Linux, ≈6 ns uncontended) and hands the
// critical section a plain closure, so that classes can keep their state in ordinary
// stored properties (usually a state-machine struct) and read or mutate them only inside
// `withLock`. `Mutex<State>` itself would demand that the protected state be `Sendable` or
// provably disconnected, which Combine's non-Sendable subscribers and values are not.
//
// Rules for every user of `Lock` (DESIGN.md, "The contract every publisher keeps", rule 6):
// - never call downstream, a user closure, or a continuation inside `withLock`;
// - never call `withLock` re-entrantly on the same lock (it is not recursive).
//
// ThreadSanitizer cannot see inside `Mutex` (its futex and atomics live in the
// uninstrumented standard library), so it would report every access guarded by a `Lock` as
// a race. `handOver` makes the hand-over visible: each critical section starts with an
// acquiring load and ends with a releasing store of it, which TSan instruments (the atomic
// operations are inlined into our code). On x86 both compile to plain moves; on ARM to
// `ldar`/`stlr` on a line the mutex already owns.

/// A non-recursive mutual-exclusion lock guarding state stored beside it.
@usableFromInline
internal struct Lock: ~Copyable, Sendable {
  @usableFromInline
  internal let mutex = Mutex<Void>(())

  /// Written at the end and read at the start of every critical section; see above.
  @usableFromInline
  internal let handOver = Atomic<UInt8>(0)

  @inlinable
  internal init() {}

  /// Runs `body` with the lock held and returns its result.
  @inlinable
  @inline(__always)
  internal borrowing func withLock<Result>(_ body: () -> Result) -> Result {
    // The result leaves the critical section by value; the lock's `sending` requirement
    // is about the guarded value (here `Void`), not about what the caller reads out.
    nonisolated(unsafe) var result: Result?
    mutex.withLock { _ in
      _ = handOver.load(ordering: .acquiring)
      result = body()
      handOver.store(0, ordering: .releasing)
    }
    return result.unsafelyUnwrapped
  }
}
