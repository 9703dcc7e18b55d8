import Foundation

extension RunLoop.SchedulerTimeType {
  /// The interval by which run loop times advance, in seconds.
  ///
  /// Write strides with the `SchedulerTimeIntervalConvertible` functions, or with
  /// literals, which count seconds:
  ///
  /// ```swift
  /// let a: RunLoop.SchedulerTimeType.Stride = .milliseconds(250)
  /// let b: RunLoop.SchedulerTimeType.Stride = 0.25
  /// a == b           // true
  /// a.timeInterval   // 0.25
  /// ```
  ///
  /// `*` multiplies the two second counts, as in Apple's Combine.
  ///
  /// Its arithmetic and conversions are `OperationQueue.SchedulerTimeType.Stride`'s (the two share
  /// their implementation).
  /// Conforms to `ExpressibleByFloatLiteral`, `Comparable`, `SignedNumeric` and
  /// `SchedulerTimeIntervalConvertible` (through the shared implementation), `Codable`,
  /// `Hashable` and `Sendable`.
  public struct Stride: SecondsSchedulerStride, Codable, Hashable, Sendable {
    /// The value of this time interval in seconds.
    ///
    /// Unlike `Double.magnitude`, this keeps the sign: a stride backwards has a negative
    /// magnitude.
    public var magnitude: TimeInterval

    /// The value of this time interval in seconds.
    @inlinable public var timeInterval: TimeInterval { magnitude }

    /// Creates a run loop scheduler time interval from the given time interval.
    ///
    /// ```swift
    /// let stride = RunLoop.SchedulerTimeType.Stride(1.5)
    /// ```
    ///
    /// - Parameter timeInterval: The number of seconds.
    @inlinable public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }
  }
}
