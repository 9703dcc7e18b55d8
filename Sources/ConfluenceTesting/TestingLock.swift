import Synchronization

/// A non-recursive lock for the test kit's own bookkeeping (ConfluenceTesting cannot see
/// Confluence's internal `Lock`). Never held while calling out.
internal struct TestingLock: ~Copyable, Sendable {
  private let mutex = Mutex<Void>(())

  internal func withLock<Result>(_ body: () -> Result) -> Result {
    nonisolated(unsafe) var result: Result?
    mutex.withLock { _ in result = body() }
    return result!
  }
}
