import Dispatch
import Foundation

/// The serial queue that keeps time for delayed and repeating operation-queue actions and
/// adds their operations when they are due. (`DispatchQueue` is `Sendable`.)
private let operationQueueTimekeeper = DispatchQueue(label: "ConfluenceFoundation.OperationQueue.timekeeper")

/// An operation queue is a scheduler: each action runs as a block operation on the queue.
///
/// ```swift
/// let queue = OperationQueue()
/// queue.maxConcurrentOperationCount = 1
/// queue.schedule { print("in an operation") }
/// queue.schedule(after: queue.now.advanced(by: .milliseconds(100))) { print("later") }
/// let repeating = queue.schedule(after: queue.now, interval: .seconds(1)) { print("tick") }
/// repeating.cancel()
/// ```
///
/// Actions run with the queue's own concurrency, priorities and suspension: on a queue
/// whose `maxConcurrentOperationCount` is 1 they run one at a time, in the order they
/// were added. A delayed action is added to the queue when its date arrives (so
/// `cancelAllOperations()` affects it only from then on). All methods may be called from
/// any thread.
extension OperationQueue: Scheduler {
  /// This scheduler’s definition of the current moment in time: `Date()`.
  public var now: SchedulerTimeType {
    SchedulerTimeType(Date())
  }

  /// The minimum tolerance allowed by the scheduler: zero.
  public var minimumTolerance: SchedulerTimeType.Stride {
    SchedulerTimeType.Stride(0)
  }

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
    addOperation { action.run() }
  }

  /// Adds the action to the queue as a block operation once the specified date arrives.
  ///
  /// The tolerance is not used. A date in the past adds the operation at once.
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
    let action = ScheduledAction(action)
    let delay = date.date.timeIntervalSinceNow
    guard delay > 0 else {
      addOperation { action.run() }
      return
    }
    operationQueueTimekeeper.asyncAfter(deadline: .now() + delay) {
      self.addOperation { action.run() }
    }
  }

  /// Adds the action to the queue as a block operation once the specified date arrives,
  /// and then again at the specified interval, until cancelled.
  ///
  /// A `DispatchSourceTimer` keeps the time, with the tolerance as its leeway; each tick
  /// adds one operation. On a queue that runs several operations at once, a slow action
  /// may overlap the next tick's. Cancelling the returned value (or releasing it: it is
  /// an `AnyCancellable`) stops the ticks; operations already added still run.
  ///
  /// ```swift
  /// let queue = OperationQueue()
  /// let repeating = queue.schedule(after: queue.now, interval: .milliseconds(500)) {
  ///   print("tick")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - date: The time of the first run.
  ///   - interval: The time between runs.
  ///   - tolerance: The leeway the system may take with each tick.
  ///   - options: Not used; the operation queue scheduler has no options.
  ///   - action: The action to perform.
  /// - Returns: A cancellable that stops the repetition.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) -> Cancellable {
    let action = ScheduledAction(action)
    let source = DispatchSource.makeTimerSource(queue: operationQueueTimekeeper)
    source.schedule(
      deadline: .now() + date.date.timeIntervalSinceNow,
      repeating: Swift.max(interval.timeInterval, 0),
      leeway: .nanoseconds(DispatchQueue.SchedulerTimeType.Stride.seconds(Swift.max(tolerance.timeInterval, 0)).magnitude))
    source.setEventHandler { [self] in
      addOperation { action.run() }
    }
    source.resume()
    return AnyCancellable { source.cancel() }
  }
}
