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

/// A non-recursive mutual-exclusion lock guarding state stored beside it.
@usableFromInline
internal struct Lock: ~Copyable, Sendable {
  @usableFromInline
  internal let mutex = Mutex<Void>(())

  @inlinable
  internal init() {}

  /// Runs `body` with the lock held and returns its result.
  @inlinable
  @inline(__always)
  internal borrowing func withLock<Result>(_ body: () -> Result) -> Result {
    // The result leaves the critical section by value; the lock's `sending` requirement
    // is about the guarded value (here `Void`), not about what the caller reads out.
    nonisolated(unsafe) var result: Result?
    mutex.withLock { _ in result = body() }
    return result.unsafelyUnwrapped
  }
}
