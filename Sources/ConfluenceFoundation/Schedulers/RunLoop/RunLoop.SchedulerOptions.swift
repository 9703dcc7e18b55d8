import Foundation

extension RunLoop {
  /// Options that affect the operation of the run loop scheduler.
  ///
  /// The run loop scheduler has no options; pass `nil` or use the overloads without
  /// `options:`.
  ///
  /// ```swift
  /// RunLoop.main.schedule(options: nil) { print("on the next pass of the run loop") }
  /// ```
  public struct SchedulerOptions: Sendable {}
}
