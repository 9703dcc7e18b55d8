import Foundation

extension OperationQueue.SchedulerTimeType {
  /// The interval by which operation queue times advance, in seconds.
  ///
  /// Write strides with the `SchedulerTimeIntervalConvertible` functions, or with
  /// literals, which count seconds:
  ///
  /// ```swift
  /// let a: OperationQueue.SchedulerTimeType.Stride = .milliseconds(250)
  /// let b: OperationQueue.SchedulerTimeType.Stride = 0.25
  /// a == b           // true
  /// a.timeInterval   // 0.25
  /// ```
  ///
  /// `*` multiplies the two second counts, as in Apple's Combine.
  ///
  /// Its arithmetic and conversions are `RunLoop.SchedulerTimeType.Stride`'s (the two share
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

    /// Creates an operation queue stride from the given time interval.
    ///
    /// ```swift
    /// let stride = OperationQueue.SchedulerTimeType.Stride(1.5)
    /// ```
    ///
    /// - Parameter timeInterval: The number of seconds.
    @inlinable public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }
  }
}
