import Confluence
import Dispatch
import Foundation

/// A repeating `OperationQueue` scheduler action: it runs at its date and then every
/// interval until cancelled, each run one ``DelayedOperation`` handed to the queue through
/// `addOperation(_:)`.
///
/// As a run starts, it adds the next run's operation (due one interval after this run's
/// date, so that late runs do not make the cadence drift; a date already past by a whole
/// interval or more is skipped, as a repeating `Timer` skips it), then performs the action.
/// On a serial queue the next run waits for this one to end; on a concurrent queue an
/// action that outlasts the interval overlaps the next run, as the caller asked.
///
/// Cancelling (through the `AnyCancellable` the scheduler returns, or by releasing it)
/// cancels the operation waiting for its date and adds no other; a run already going
/// finishes. `cancelAllOperations()` on the queue ends the repetition too: a cancelled
/// operation does not run, so it adds no next run. The queue is held weakly: a queue that
/// is gone has nothing to run.
///
/// `@unchecked Sendable`: `isCancelled` and `waiting` are read and written only with `lock`
/// held; the other stored properties are constants.
internal final class RepeatingOperationSchedule: Cancellable, @unchecked Sendable {
  /// Foundation's `Timer` uses this interval for one of zero or less; so does this.
  private static let shortestInterval: TimeInterval = 0.0001

  private weak var queue: OperationQueue?
  private let action: ScheduledAction
  private let interval: TimeInterval
  private let lock = Lock()
  private var isCancelled = false
  /// The operation of the next run, waiting for its date.
  private var waiting: DelayedOperation?

  internal init(queue: OperationQueue, interval: TimeInterval, action: @escaping () -> Void) {
    self.queue = queue
    self.action = ScheduledAction(action)
    self.interval = Swift.max(interval, Self.shortestInterval)
  }

  /// Adds the first run, due at `date`.
  internal func start(at date: Date) {
    add(runAt: date)
  }

  private func add(runAt date: Date) {
    let operation = DelayedOperation({ [self] in run(dueAt: date) }, after: date)
    let queue = lock.withLock { () -> OperationQueue? in
      guard !isCancelled else { return nil }
      waiting = operation
      return self.queue
    }
    queue?.addOperation(operation)
  }

  private func run(dueAt date: Date) {
    guard !lock.withLock({ isCancelled }) else { return }
    var next = date.addingTimeInterval(interval)
    let now = Date()
    if next.timeIntervalSince(now) <= -interval {
      let missed = (now.timeIntervalSince(next) / interval).rounded(.down)
      next = next.addingTimeInterval(missed * interval)
    }
    add(runAt: next)
    action.run()
  }

  internal func cancel() {
    let operation = lock.withLock { () -> DelayedOperation? in
      isCancelled = true
      return waiting.take()
    }
    operation?.cancel()
  }
}
