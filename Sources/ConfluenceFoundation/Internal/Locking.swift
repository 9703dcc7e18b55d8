import Synchronization

// ConfluenceFoundation's locking primitive: the same shape as `Lock` in Confluence's
// Internal/Locking.swift (which is internal to that module), so the Foundation glue keeps
// its state in ordinary stored properties read and written only inside `withLock`.
//
// Rules: never call downstream, a user closure, a run loop or a queue inside `withLock`;
// never call `withLock` re-entrantly on the same lock (it is not recursive).

/// A non-recursive mutual-exclusion lock guarding state stored beside it.
internal struct FoundationLock: ~Copyable, Sendable {
  private let mutex = Mutex<Void>(())

  internal init() {}

  /// Runs `body` with the lock held and returns its result.
  @inline(__always)
  internal borrowing func withLock<Result>(_ body: () -> Result) -> Result {
    // The result leaves the critical section by value; `Mutex`'s `sending` requirement is
    // about the guarded value (here `Void`), not about what the caller reads out.
    nonisolated(unsafe) var result: Result?
    mutex.withLock { _ in result = body() }
    return result.unsafelyUnwrapped
  }
}
