import Foundation

/// A run loop is a scheduler: actions run on the run loop's thread, in its default mode,
/// when that thread runs the loop.
///
/// ```swift
/// let runLoop = RunLoop.main
/// let subscription = runLoop.schedule(
///   after: runLoop.now,
///   interval: .seconds(1),
///   tolerance: .milliseconds(100)
/// ) {
///   print("Timer fired")
/// }
/// runLoop.schedule(after: .init(Date(timeIntervalSinceNow: 3.0))) {
///   subscription.cancel()
/// }
/// RunLoop.main.run(until: Date(timeIntervalSinceNow: 3.5))   // fires about 4 times
/// ```
///
/// Nothing runs until the loop does: on Linux as on Darwin, drive it with
/// `RunLoop.main.run()`, `run(until:)` or `run(mode:before:)` on its own thread (XCTest's
/// `wait(for:timeout:)` runs the current run loop). Scheduling may be done from any
/// thread: a run loop sleeping on another thread is woken up.
///
/// Its `now` is `Date()` and its `minimumTolerance` zero (shared with
/// `OperationQueue`'s).
extension RunLoop: Scheduler, WallClockScheduler {
  /// Performs the action on the run loop's next pass, in the default mode.
  ///
  /// Actions scheduled this way run in the order they were scheduled.
  ///
  /// ```swift
  /// RunLoop.main.schedule { print("on the main thread, soon") }
  /// ```
  ///
  /// - Parameters:
  ///   - options: Not used; the run loop scheduler has no options.
  ///   - action: The action to perform.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    let action = ScheduledAction(action)
    perform { action.run() }
    wakeUpIfRunningElsewhere()
  }

  /// Performs the action on the run loop at some time after the specified date, with a
  /// one-shot `Timer` in the default mode.
  ///
  /// ```swift
  /// let runLoop = RunLoop.main
  /// runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(300)), tolerance: .zero, options: nil) {
  ///   print("300 ms later")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - date: The time after which to perform the action.
  ///   - tolerance: The timer's tolerance.
  ///   - options: Not used; the run loop scheduler has no options.
  ///   - action: The action to perform.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) {
    let action = ScheduledAction(action)
    let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in action.run() }
    timer.tolerance = Swift.max(tolerance.timeInterval, 0)
    add(timer, forMode: .default)
  }

  /// Performs the action on the run loop at some time after the specified date, and then
  /// again at the specified interval, until cancelled, with a repeating `Timer` in the
  /// default mode.
  ///
  /// Cancelling the returned value (or releasing it: it is an `AnyCancellable`)
  /// invalidates the timer.
  ///
  /// ```swift
  /// let runLoop = RunLoop.main
  /// let subscription = runLoop.schedule(after: runLoop.now, interval: .seconds(1), tolerance: .milliseconds(100)) {
  ///   print("Timer fired")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - date: The time of the first run.
  ///   - interval: The time between runs.
  ///   - tolerance: The timer's tolerance.
  ///   - options: Not used; the run loop scheduler has no options.
  ///   - action: The action to perform.
  /// - Returns: A cancellable that invalidates the timer.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) -> Cancellable {
    let action = ScheduledAction(action)
    let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { _ in action.run() }
    timer.tolerance = Swift.max(tolerance.timeInterval, 0)
    add(timer, forMode: .default)
    return AnyCancellable { timer.invalidate() }
  }

  /// `perform` only queues its block (`CFRunLoopPerformBlock` does not wake the loop), so a
  /// loop asleep on another thread would not run it until something else woke it. Adding
  /// a timer that is already due re-arms the loop's timer port, which wakes it; the
  /// queued block then runs in the same pass.
  ///
  /// A loop that is not running needs no wake-up (it runs queued blocks when it starts),
  /// nor does the main loop when the caller is on the main thread.
  private func wakeUpIfRunningElsewhere() {
    if Thread.isMainThread && self === RunLoop.main { return }
    guard currentMode != nil else { return }
    add(Timer(fire: Date(), interval: 0, repeats: false) { _ in }, forMode: .default)
  }
}
