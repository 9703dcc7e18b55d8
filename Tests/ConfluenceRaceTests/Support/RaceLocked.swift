import Confluence

/// A value guarded by the library's own `Lock`: the race harness's mutex.
///
/// Not `Synchronization.Mutex`: on Linux it locks with futexes inside the standard library,
/// which the thread sanitizer does not instrument, so it sees none of the ordering the mutex
/// gives and reports the harness's own guarded accesses as races. `Lock` is a pthread mutex
/// in thread-sanitizer builds (`-DCONFLUENCE_THREAD_SANITIZER`), which the sanitizer
/// intercepts, and `Synchronization.Mutex` otherwise, so the harness keeps its speed in the
/// normal runs and the race suite can run under the sanitizer (`.ci/run`).
final class RaceLocked<Value>: @unchecked Sendable {
  // @unchecked Sendable: `value` is only read and written inside `lock`.
  private let lock = Lock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` on the value with the lock held.
  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.withLock { body(&value) }
  }
}
