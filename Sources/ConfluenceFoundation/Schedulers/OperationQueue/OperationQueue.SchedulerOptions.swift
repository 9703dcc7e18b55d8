import Foundation

extension OperationQueue {
  /// Options that affect the operation of the operation queue scheduler.
  ///
  /// The operation queue scheduler has no options; pass `nil` or use the overloads
  /// without `options:`.
  ///
  /// ```swift
  /// OperationQueue.main.schedule(options: nil) { print("in an operation") }
  /// ```
  public struct SchedulerOptions: Sendable {}
}
