import Confluence
import Foundation

/// A scheduler stride counted in seconds, as a `TimeInterval`: what
/// `RunLoop.SchedulerTimeType.Stride` and `OperationQueue.SchedulerTimeType.Stride` have in
/// common, written once.
///
/// The two public types keep Apple's names and members; each declares only its `magnitude`,
/// `timeInterval` and `init(_:)` (and synthesises `Equatable`, `Hashable` and `Codable` from
/// the magnitude), and takes the rest from here. The members below are public so that they
/// can stand for the public protocols' requirements (`SignedNumeric`, `Comparable`,
/// `ExpressibleByFloatLiteral`, `SchedulerTimeIntervalConvertible`); they are reached
/// through those conformances. `*` multiplies the two second counts, as in Apple's Combine.
@usableFromInline
internal protocol SecondsSchedulerStride: SignedNumeric, Comparable, ExpressibleByFloatLiteral,
  SchedulerTimeIntervalConvertible
where Magnitude == TimeInterval, IntegerLiteralType == TimeInterval, FloatLiteralType == TimeInterval {
  /// The value of this time interval in seconds (signed, unlike `Double.magnitude`).
  var magnitude: TimeInterval { get set }

  /// Creates a stride of `timeInterval` seconds.
  init(_ timeInterval: TimeInterval)
}

extension SecondsSchedulerStride {
  /// Creates a stride from an integer literal, in seconds.
  ///
  /// ```swift
  /// let stride: RunLoop.SchedulerTimeType.Stride = 2   // two seconds
  /// ```
  ///
  /// - Parameter value: The number of seconds.
  @inlinable
  public init(integerLiteral value: TimeInterval) {
    self.init(value)
  }

  /// Creates a stride from a floating-point literal, in seconds.
  ///
  /// ```swift
  /// let stride: OperationQueue.SchedulerTimeType.Stride = 0.5   // half a second
  /// ```
  ///
  /// - Parameter value: The number of seconds.
  @inlinable
  public init(floatLiteral value: TimeInterval) {
    self.init(value)
  }

  /// Creates a stride from a binary integer, in seconds.
  ///
  /// ```swift
  /// RunLoop.SchedulerTimeType.Stride(exactly: 3)?.timeInterval   // 3.0 seconds
  /// ```
  ///
  /// - Parameter source: A binary integer representing a number of seconds.
  /// - Returns: The interval, or `nil` if `source` cannot be represented exactly as a
  ///   `TimeInterval`.
  @inlinable
  public init?<T: BinaryInteger>(exactly source: T) {
    guard let value = TimeInterval(exactly: source) else { return nil }
    self.init(value)
  }

  /// Returns whether the first interval is shorter than the second.
  @inlinable
  public static func < (lhs: Self, rhs: Self) -> Bool {
    lhs.magnitude < rhs.magnitude
  }

  /// Multiplies the two second counts.
  @inlinable
  public static func * (lhs: Self, rhs: Self) -> Self {
    Self(lhs.magnitude * rhs.magnitude)
  }

  /// Adds two intervals.
  @inlinable
  public static func + (lhs: Self, rhs: Self) -> Self {
    Self(lhs.magnitude + rhs.magnitude)
  }

  /// Subtracts one interval from another.
  @inlinable
  public static func - (lhs: Self, rhs: Self) -> Self {
    Self(lhs.magnitude - rhs.magnitude)
  }

  /// Subtracts the second interval from the first and stores the result in the first.
  @inlinable
  public static func -= (lhs: inout Self, rhs: Self) {
    lhs = lhs - rhs
  }

  /// Multiplies the two second counts and stores the result in the first.
  @inlinable
  public static func *= (lhs: inout Self, rhs: Self) {
    lhs = lhs * rhs
  }

  /// Adds the second interval to the first and stores the result in the first.
  @inlinable
  public static func += (lhs: inout Self, rhs: Self) {
    lhs = lhs + rhs
  }

  /// Converts the specified number of seconds into a stride.
  @inlinable
  public static func seconds(_ s: Int) -> Self {
    Self(TimeInterval(s))
  }

  /// Converts the specified number of seconds, as a floating-point value, into a stride.
  @inlinable
  public static func seconds(_ s: Double) -> Self {
    Self(s)
  }

  /// Converts the specified number of milliseconds into a stride.
  @inlinable
  public static func milliseconds(_ ms: Int) -> Self {
    Self(TimeInterval(ms) / 1_000)
  }

  /// Converts the specified number of microseconds into a stride.
  @inlinable
  public static func microseconds(_ us: Int) -> Self {
    Self(TimeInterval(us) / 1_000_000)
  }

  /// Converts the specified number of nanoseconds into a stride.
  @inlinable
  public static func nanoseconds(_ ns: Int) -> Self {
    Self(TimeInterval(ns) / 1_000_000_000)
  }
}
