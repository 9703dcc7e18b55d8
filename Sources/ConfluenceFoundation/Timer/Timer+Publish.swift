import Foundation

extension Timer {
  /// Returns a publisher that repeatedly emits the current date on the given interval.
  ///
  /// The publisher is connectable: nothing happens until you call `connect()` (or use
  /// `autoconnect()`), which installs a repeating `Timer` on the run loop. Each tick sends
  /// `Date()` to every subscriber that has outstanding demand.
  ///
  /// ```swift
  /// let publisher = Timer.publish(every: 1.0, on: .main, in: .common)
  /// let subscription = publisher.sink { date in print("Tick at \(date)") }
  /// let connection = publisher.connect()
  /// RunLoop.main.run(until: Date(timeIntervalSinceNow: 3.5))   // three ticks
  /// connection.cancel()
  /// ```
  ///
  /// The timer fires only while the run loop runs in `mode` (`.common` includes the
  /// default mode that `RunLoop.run(until:)` uses).
  ///
  /// - Parameters:
  ///   - interval: The time interval on which to publish events. For example, a value of
  ///     `0.5` publishes an event approximately every half-second.
  ///   - tolerance: The allowed timing variance when emitting events. As in Apple's
  ///     Combine (the conformance suite records it), the publisher it returns has a `nil`
  ///     tolerance whatever is passed here; to set one, make the publisher with
  ///     `Timer.TimerPublisher(interval:tolerance:runLoop:mode:options:)`.
  ///   - runLoop: The run loop on which the timer runs.
  ///   - mode: The run loop mode in which to run the timer.
  ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
  /// - Returns: A publisher that repeatedly emits the current date on the given interval.
  public static func publish(
    every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop, in mode: RunLoop.Mode,
    options: RunLoop.SchedulerOptions? = nil
  ) -> TimerPublisher {
    TimerPublisher(interval: interval, tolerance: nil, runLoop: runLoop, mode: mode, options: options)
  }
}
