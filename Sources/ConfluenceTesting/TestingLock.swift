import Synchronization

/// A non-recursive lock for the test kit's own bookkeeping (ConfluenceTesting cannot see
/// Confluence's internal `Lock`). Never held while calling out.
internal struct TestingLock: ~Copyable, Sendable {
  private let mutex = Mutex<Void>(())

  /// Makes the lock visible to ThreadSanitizer, which cannot see inside `Mutex` (see
  /// Confluence's Locking.swift).
  private let handOver = Atomic<UInt8>(0)

  internal func withLock<Result>(_ body: () -> Result) -> Result {
    nonisolated(unsafe) var result: Result?
    mutex.withLock { _ in
      _ = handOver.load(ordering: .acquiring)
      result = body()
      handOver.store(0, ordering: .releasing)
    }
    return result!
  }
}
