import Foundation

extension OperationQueue {
  /// The scheduler time type used by the operation queue.
  ///
  /// A `SchedulerTimeType` wraps a `Date`, the wall-clock time at which a delayed
  /// operation is added to the queue. You get one from the queue's `now`, or from any
  /// date, and move it with a ``Stride`` counted in seconds:
  ///
  /// ```swift
  /// let queue = OperationQueue()
  /// queue.schedule(after: .init(Date(timeIntervalSinceNow: 3.0))) { print("3 s later") }
  /// queue.schedule(after: queue.now.advanced(by: .milliseconds(500))) { print("sooner") }
  /// ```
  public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
    /// The date represented by this type.
    public var date: Date

    /// Initializes an operation queue scheduler time with the given date.
    ///
    /// ```swift
    /// let time = OperationQueue.SchedulerTimeType(Date(timeIntervalSinceNow: 1))
    /// ```
    ///
    /// - Parameter date: The date to represent.
    @inlinable
    public init(_ date: Date) {
      self.date = date
    }

    /// Returns the distance to another operation queue scheduler time.
    ///
    /// ```swift
    /// let start = OperationQueue.main.now
    /// start.distance(to: start.advanced(by: 2.5))   // 2.5 seconds
    /// ```
    ///
    /// - Parameter other: Another operation queue time.
    /// - Returns: The time interval between this time and the provided time, in seconds.
    @inlinable
    public func distance(to other: SchedulerTimeType) -> Stride {
      Stride(other.date.timeIntervalSince(date))
    }

    /// Returns a operation queue scheduler time calculated by advancing this instance’s time by
    /// the given interval.
    ///
    /// ```swift
    /// let deadline = OperationQueue.main.now.advanced(by: .seconds(1))
    /// ```
    ///
    /// - Parameter n: A time interval to advance; negative to go back.
    /// - Returns: A operation queue time advanced by the given interval from this instance’s time.
    @inlinable
    public func advanced(by n: Stride) -> SchedulerTimeType {
      SchedulerTimeType(date.addingTimeInterval(n.timeInterval))
    }

    /// Returns whether two times are the same instant.
    @inlinable
    public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
      lhs.date == rhs.date
    }

    /// Returns whether the first time comes before the second.
    @inlinable
    public static func < (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
      lhs.date < rhs.date
    }

    /// Hashes the date.
    ///
    /// - Parameter hasher: The hasher to use when combining the components of this
    ///   instance.
    @inlinable
    public func hash(into hasher: inout Hasher) {
      hasher.combine(date)
    }
  }
}
