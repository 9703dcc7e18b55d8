import Dispatch
import Foundation

/// An operation queue is a scheduler: each action is handed to the queue as exactly one
/// `Operation`, through `addOperation(_:)` (so a subclass that overrides it sees every
/// scheduled action), as Apple's does.
///
/// ```swift
/// let queue = OperationQueue()
/// queue.maxConcurrentOperationCount = 1
/// queue.schedule { print("in an operation") }
/// queue.schedule(after: queue.now.advanced(by: .milliseconds(100))) { print("later") }
/// let repeating = queue.schedule(after: queue.now, interval: .seconds(1)) { print("tick") }
/// repeating.cancel()   // the ticks stop
/// ```
///
/// Actions run with the queue's own concurrency, priorities and suspension: on a queue
/// whose `maxConcurrentOperationCount` is 1 they run one at a time, in the order they
/// were added, except that a delayed action is added at once but is not ready until its
/// date, and the queue runs ready operations first. `cancelAllOperations()` cancels
/// delayed actions too. All methods may be called from any thread.
///
/// Its `now` is `Date()` and its `minimumTolerance` zero (shared with
/// `RunLoop`'s).
extension OperationQueue: Scheduler, WallClockScheduler {
  /// Adds the action to the queue as a block operation.
  ///
  /// ```swift
  /// OperationQueue.main.schedule { print("on the main queue") }
  /// ```
  ///
  /// - Parameters:
  ///   - options: Not used; the operation queue scheduler has no options.
  ///   - action: The action to perform.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    let action = ScheduledAction(action)
    addOperation(BlockOperation { action.run() })
  }

  /// Adds the action to the queue as one operation, which becomes ready (and runs) once the
  /// specified date arrives.
  ///
  /// The operation is added at once; until its date it is not ready, so the queue runs
  /// other operations meanwhile. The tolerance is not used. A date in the past makes it
  /// ready at once.
  ///
  /// ```swift
  /// let queue = OperationQueue()
  /// queue.schedule(after: queue.now.advanced(by: .seconds(1)), tolerance: .zero, options: nil) {
  ///   print("a second later")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - date: The time after which to perform the action.
  ///   - tolerance: The allowed variance; not used.
  ///   - options: Not used; the operation queue scheduler has no options.
  ///   - action: The action to perform.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) {
    addOperation(DelayedOperation(action, after: date.date))
  }

  /// Performs the action at the specified date, and then again every `interval`, until
  /// cancelled.
  ///
  /// Each run is one operation, handed to the queue through `addOperation(_:)` (a subclass
  /// that overrides it sees each): the first is added at once and becomes ready at `date`;
  /// as a run starts it adds the next, due one interval after its own date (a date missed
  /// by a whole interval or more is skipped, as a repeating `Timer` skips it), then performs
  /// the action. On a serial queue runs never overlap; on a concurrent queue an action that
  /// outlasts the interval overlaps the next run. Cancelling the returned value (or
  /// releasing it: it is an `AnyCancellable`) cancels the run waiting for its date and
  /// stops the repetition; a run already going finishes. `cancelAllOperations()` stops it
  /// too. An interval of zero or less is taken as 0.1 ms, as `Timer` takes it. The tolerance
  /// is not used.
  ///
  /// ```swift
  /// let queue = OperationQueue()
  /// let repeating = queue.schedule(after: queue.now, interval: .milliseconds(500)) {
  ///   print("tick")
  /// }
  /// // later
  /// repeating.cancel()
  /// ```
  ///
  /// - Parameters:
  ///   - date: The time of the first run.
  ///   - interval: The time between runs.
  ///   - tolerance: Not used.
  ///   - options: Not used; the operation queue scheduler has no options.
  ///   - action: The action to perform.
  /// - Returns: A cancellable that stops the repetition.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) -> Cancellable {
    let repeating = RepeatingOperationSchedule(queue: self, interval: interval.timeInterval, action: action)
    repeating.start(at: date.date)
    return AnyCancellable(repeating)
  }
}
