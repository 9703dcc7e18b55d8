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
  ///
  /// It compares, hashes and encodes as its date, and moves as `OperationQueue.SchedulerTimeType`
  /// does (the two share their implementation).
  /// Conforms to `Strideable` (through the shared implementation), `Codable`, `Hashable`
  /// and `Sendable`.
  public struct SchedulerTimeType: DateSchedulerTime, Codable, Hashable, Sendable {
    /// The date represented by this type.
    public var date: Date

    /// Initializes a run loop scheduler time with the given date.
    ///
    /// ```swift
    /// let time = RunLoop.SchedulerTimeType(Date(timeIntervalSinceNow: 1))
    /// ```
    ///
    /// - Parameter date: The date to represent.
    @inlinable public init(_ date: Date) { self.date = date }
  }
}
