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
  public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable, Hashable,
    SchedulerTimeIntervalConvertible, Sendable
  {
    /// The type used when evaluating floating-point literals: seconds.
    public typealias FloatLiteralType = TimeInterval

    /// The type used when evaluating integer literals: seconds.
    public typealias IntegerLiteralType = TimeInterval

    /// The type used for expressing the stride’s magnitude: seconds.
    public typealias Magnitude = TimeInterval

    /// The value of this time interval in seconds.
    ///
    /// Unlike `Double.magnitude`, this keeps the sign: a stride backwards has a negative
    /// magnitude.
    public var magnitude: TimeInterval

    /// The value of this time interval in seconds.
    @inlinable
    public var timeInterval: TimeInterval {
      magnitude
    }

    /// Creates a stride from an integer seconds value.
    ///
    /// ```swift
    /// let stride: OperationQueue.SchedulerTimeType.Stride = 2   // two seconds
    /// ```
    ///
    /// - Parameter value: The number of seconds.
    @inlinable
    public init(integerLiteral value: TimeInterval) {
      magnitude = value
    }

    /// Creates a stride from a floating-point seconds value.
    ///
    /// ```swift
    /// let stride: OperationQueue.SchedulerTimeType.Stride = 0.5   // half a second
    /// ```
    ///
    /// - Parameter value: The number of seconds.
    @inlinable
    public init(floatLiteral value: TimeInterval) {
      magnitude = value
    }

    /// Creates a stride from the given time interval.
    ///
    /// ```swift
    /// let stride = OperationQueue.SchedulerTimeType.Stride(1.5)
    /// ```
    ///
    /// - Parameter timeInterval: The number of seconds.
    @inlinable
    public init(_ timeInterval: TimeInterval) {
      magnitude = timeInterval
    }

    /// Creates a stride from a binary integer type.
    ///
    /// ```swift
    /// OperationQueue.SchedulerTimeType.Stride(exactly: 3)?.timeInterval   // 3.0 seconds
    /// ```
    ///
    /// - Parameter source: A binary integer representing a number of seconds.
    /// - Returns: The interval, or `nil` if `source` cannot be represented exactly as a
    ///   `TimeInterval`.
    @inlinable
    public init?<T: BinaryInteger>(exactly source: T) {
      guard let value = TimeInterval(exactly: source) else { return nil }
      magnitude = value
    }

    /// Returns whether the first interval is shorter than the second.
    @inlinable
    public static func < (lhs: Stride, rhs: Stride) -> Bool {
      lhs.magnitude < rhs.magnitude
    }

    /// Multiplies the two second counts.
    @inlinable
    public static func * (lhs: Stride, rhs: Stride) -> Stride {
      Stride(lhs.magnitude * rhs.magnitude)
    }

    /// Adds two intervals.
    @inlinable
    public static func + (lhs: Stride, rhs: Stride) -> Stride {
      Stride(lhs.magnitude + rhs.magnitude)
    }

    /// Subtracts one interval from another.
    @inlinable
    public static func - (lhs: Stride, rhs: Stride) -> Stride {
      Stride(lhs.magnitude - rhs.magnitude)
    }

    /// Subtracts the second interval from the first and stores the result in the first.
    @inlinable
    public static func -= (lhs: inout Stride, rhs: Stride) {
      lhs = lhs - rhs
    }

    /// Multiplies the two second counts and stores the result in the first.
    @inlinable
    public static func *= (lhs: inout Stride, rhs: Stride) {
      lhs = lhs * rhs
    }

    /// Adds the second interval to the first and stores the result in the first.
    @inlinable
    public static func += (lhs: inout Stride, rhs: Stride) {
      lhs = lhs + rhs
    }

    /// Converts the specified number of seconds into a stride.
    @inlinable
    public static func seconds(_ s: Int) -> Stride {
      Stride(TimeInterval(s))
    }

    /// Converts the specified number of seconds, as a floating-point value, into a stride.
    @inlinable
    public static func seconds(_ s: Double) -> Stride {
      Stride(s)
    }

    /// Converts the specified number of milliseconds into a stride.
    @inlinable
    public static func milliseconds(_ ms: Int) -> Stride {
      Stride(TimeInterval(ms) / 1_000)
    }

    /// Converts the specified number of microseconds into a stride.
    @inlinable
    public static func microseconds(_ us: Int) -> Stride {
      Stride(TimeInterval(us) / 1_000_000)
    }

    /// Converts the specified number of nanoseconds into a stride.
    @inlinable
    public static func nanoseconds(_ ns: Int) -> Stride {
      Stride(TimeInterval(ns) / 1_000_000_000)
    }
  }
}
