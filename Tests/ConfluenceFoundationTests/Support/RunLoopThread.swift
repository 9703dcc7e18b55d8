import Foundation

/// A thread that runs its own run loop in passes of `passLength` seconds until stopped,
/// for tests that schedule onto a run loop from another thread.
///
/// A far-future timer keeps the loop's default mode non-empty, so each pass sleeps until
/// something wakes the loop or the pass ends.
//
// @unchecked Sendable: `loop` is written once by the thread before `ready` is signalled and
// only read after `ready` was waited for; `stopped` is read and written under `lock`.
final class RunLoopThread: @unchecked Sendable {
  private let lock = NSLock()
  private var stopped = false
  private let ready = DispatchSemaphore(value: 0)
  private var loop: RunLoop?

  init(passLength: TimeInterval) {
    let thread = Thread { [self] in
      let runLoop = RunLoop.current
      // Not `Timer(timeInterval:repeats:block:)`: on Linux that one fires at once.
      runLoop.add(Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }, forMode: .default)
      loop = runLoop
      ready.signal()
      while !isStopped {
        _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: passLength))
      }
    }
    thread.start()
    ready.wait()
  }

  /// The thread's run loop.
  var runLoop: RunLoop { loop! }

  private var isStopped: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stopped
  }

  /// Ends the loop after its current pass; does not wait for it.
  func stop() {
    lock.lock()
    stopped = true
    lock.unlock()
  }
}
