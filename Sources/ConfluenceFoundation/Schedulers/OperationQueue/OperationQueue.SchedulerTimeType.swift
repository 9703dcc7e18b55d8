import Foundation

extension OperationQueue {
  /// The scheduler time type used by the operation queue.
  ///
  /// A `SchedulerTimeType` wraps a `Date`, the wall-clock time at which a delayed
  /// operation becomes ready. You get one from the queue's `now`, or from any date, and
  /// move it with a ``Stride`` counted in seconds:
  ///
  /// ```swift
  /// let queue = OperationQueue()
  /// queue.schedule(after: .init(Date(timeIntervalSinceNow: 3.0))) { print("3 s later") }
  /// queue.schedule(after: queue.now.advanced(by: .milliseconds(500))) { print("sooner") }
  /// ```
  ///
  /// It compares, hashes and encodes as its date, and moves as `RunLoop.SchedulerTimeType`
  /// does (the two share their implementation).
  /// Conforms to `Strideable` (through the shared implementation), `Codable`, `Hashable`
  /// and `Sendable`.
  public struct SchedulerTimeType: DateSchedulerTime, Codable, Hashable, Sendable {
    /// The date represented by this type.
    public var date: Date

    /// Initializes an operation queue scheduler time with the given date.
    ///
    /// ```swift
    /// let time = OperationQueue.SchedulerTimeType(Date(timeIntervalSinceNow: 1))
    /// ```
    ///
    /// - Parameter date: The date to represent.
    @inlinable public init(_ date: Date) { self.date = date }
  }
}
