import Foundation

extension RunLoop {
  /// The scheduler time type used by the run loop.
  ///
  /// A `SchedulerTimeType` wraps a `Date`, the wall-clock time that run-loop timers fire
  /// at. You get one from the run loop's `now`, or from any date, and move it with a
  /// ``Stride`` counted in seconds:
  ///
  /// ```swift
  /// let runLoop = RunLoop.main
  /// runLoop.schedule(after: .init(Date(timeIntervalSinceNow: 3.0))) { print("3 s later") }
  /// runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(500))) { print("sooner") }
  /// ```
  public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
    /// The date represented by this type.
    public var date: Date

    /// Initializes a run loop scheduler time with the given date.
    ///
    /// ```swift
    /// let time = RunLoop.SchedulerTimeType(Date(timeIntervalSinceNow: 1))
    /// ```
    ///
    /// - Parameter date: The date to represent.
    @inlinable
    public init(_ date: Date) {
      self.date = date
    }

    /// Returns the distance to another run loop scheduler time.
    ///
    /// ```swift
    /// let start = RunLoop.main.now
    /// start.distance(to: start.advanced(by: 2.5))   // 2.5 seconds
    /// ```
    ///
    /// - Parameter other: Another run loop time.
    /// - Returns: The time interval between this time and the provided time, in seconds.
    @inlinable
    public func distance(to other: SchedulerTimeType) -> Stride {
      Stride(other.date.timeIntervalSince(date))
    }

    /// Returns a run loop scheduler time calculated by advancing this instance’s time by
    /// the given interval.
    ///
    /// ```swift
    /// let deadline = RunLoop.main.now.advanced(by: .seconds(1))
    /// ```
    ///
    /// - Parameter n: A time interval to advance; negative to go back.
    /// - Returns: A run loop time advanced by the given interval from this instance’s time.
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
