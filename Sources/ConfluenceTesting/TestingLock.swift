#if CONFLUENCE_THREAD_SANITIZER
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #endif
#else
  import Synchronization
#endif

/// A non-recursive lock for the test kit's own bookkeeping (ConfluenceTesting cannot see
/// Confluence's internal `Lock`). Never held while calling out. Like Confluence's lock, it
/// is a pthread mutex in thread-sanitizer builds so the sanitizer sees its ordering.
internal struct TestingLock: ~Copyable, @unchecked Sendable {
  // @unchecked Sendable: a mutex is the synchronisation itself.
  #if CONFLUENCE_THREAD_SANITIZER
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    internal init() {
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    }

    internal func withLock<Result>(_ body: () -> Result) -> Result {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return body()
    }
  #else
    private let mutex = Mutex<Void>(())

    internal init() {}

    internal func withLock<Result>(_ body: () -> Result) -> Result {
      nonisolated(unsafe) var result: Result?
      mutex.withLock { _ in result = body() }
      return result!
    }
  #endif
}
