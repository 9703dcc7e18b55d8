import Dispatch

extension DispatchQueue.SchedulerTimeType {
  /// A distance between two dispatch queue times, in nanoseconds.
  ///
  /// Write strides with the `SchedulerTimeIntervalConvertible` functions, or with
  /// literals, which count **seconds**:
  ///
  /// ```swift
  /// let a: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(1_500)
  /// let b: DispatchQueue.SchedulerTimeType.Stride = 1.5      // seconds
  /// a == b                                                   // true
  /// a.magnitude                                              // 1_500_000_000 (ns)
  /// a.timeInterval                                           // .nanoseconds(1_500_000_000)
  /// ```
  ///
  /// As in Apple's Combine, ``init(exactly:)`` and integer literals count seconds, `*`
  /// multiplies the two intervals as seconds, and the coded form is
  /// `{"_nanoseconds": n}`. Conversions from seconds, milliseconds and microseconds
  /// saturate at the bounds of `Int`; `+` and `-` trap on overflow, like `Int`.
  public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
    Hashable, Codable, Sendable
  {
    /// The type used when evaluating floating-point literals: seconds, as a `Double`.
    public typealias FloatLiteralType = Double

    /// The type used when evaluating integer literals: seconds, as an `Int`.
    public typealias IntegerLiteralType = Int

    /// The type used for expressing the stride’s magnitude: nanoseconds, as an `Int`.
    public typealias Magnitude = Int

    /// The value of this time interval in nanoseconds.
    ///
    /// Unlike `Int.magnitude`, this keeps the sign: a stride backwards has a negative
    /// magnitude.
    public var magnitude: Int

    /// As Apple's coded form: `{"_nanoseconds": n}`.
    @usableFromInline
    internal enum CodingKeys: String, CodingKey {
      case magnitude = "_nanoseconds"
    }

    /// A `DispatchTimeInterval` created with the value of this type in nanoseconds.
    @inlinable
    public var timeInterval: DispatchTimeInterval {
      .nanoseconds(magnitude)
    }

    @inlinable
    internal init(nanoseconds: Int) {
      magnitude = nanoseconds
    }

    /// Creates a dispatch queue time interval from the given dispatch time interval.
    ///
    /// ```swift
    /// let stride = DispatchQueue.SchedulerTimeType.Stride(.milliseconds(20))
    /// stride.magnitude   // 20_000_000
    /// ```
    ///
    /// - Parameter timeInterval: A dispatch time interval. `.never` becomes `Int.max`
    ///   nanoseconds; values too large for `Int` nanoseconds saturate.
    @inlinable
    public init(_ timeInterval: DispatchTimeInterval) {
      switch timeInterval {
      case .seconds(let s): magnitude = Stride.product(s, 1_000_000_000)
      case .milliseconds(let ms): magnitude = Stride.product(ms, 1_000_000)
      case .microseconds(let us): magnitude = Stride.product(us, 1_000)
      case .nanoseconds(let ns): magnitude = ns
      case .never: magnitude = Int.max
      @unknown default: magnitude = Int.max
      }
    }

    /// Creates a dispatch queue time interval from a floating-point seconds value.
    ///
    /// ```swift
    /// let stride: DispatchQueue.SchedulerTimeType.Stride = 0.25   // 250_000_000 ns
    /// ```
    ///
    /// - Parameter value: The number of seconds, as a `Double`; rounded to the nearest
    ///   nanosecond and saturated at the bounds of `Int`.
    @inlinable
    public init(floatLiteral value: Double) {
      magnitude = Stride.nanoseconds(fromSeconds: value)
    }

    /// Creates a dispatch queue time interval from an integer seconds value.
    ///
    /// ```swift
    /// let stride: DispatchQueue.SchedulerTimeType.Stride = 2   // 2_000_000_000 ns
    /// ```
    ///
    /// - Parameter value: The number of seconds, as an `Int`.
    @inlinable
    public init(integerLiteral value: Int) {
      magnitude = Stride.product(value, 1_000_000_000)
    }

    /// Creates a dispatch queue time interval from a binary integer type.
    ///
    /// As Apple's (and as the integer literal), the number counts seconds.
    ///
    /// ```swift
    /// DispatchQueue.SchedulerTimeType.Stride(exactly: 5)?.magnitude   // 5_000_000_000 (ns)
    /// DispatchQueue.SchedulerTimeType.Stride(exactly: UInt64.max)     // nil
    /// ```
    ///
    /// - Parameter source: A binary integer representing a time interval in seconds.
    /// - Returns: The interval, or `nil` if `source` does not fit in an `Int`.
    @inlinable
    public init?<T: BinaryInteger>(exactly source: T) {
      guard let value = Int(exactly: source) else { return nil }
      magnitude = Stride.product(value, 1_000_000_000)
    }

    /// Returns whether the first interval is shorter than the second.
    @inlinable
    public static func < (lhs: Stride, rhs: Stride) -> Bool {
      lhs.magnitude < rhs.magnitude
    }

    /// Multiplies the two intervals as seconds, as Apple's Combine does: the product of
    /// two short strides is far below a nanosecond (`.nanoseconds(18) * .microseconds(1)`
    /// is `.nanoseconds(0)`).
    @inlinable
    public static func * (lhs: Stride, rhs: Stride) -> Stride {
      let seconds = (Double(lhs.magnitude) / 1_000_000_000) * (Double(rhs.magnitude) / 1_000_000_000)
      return Stride(nanoseconds: Stride.nanoseconds(fromSeconds: seconds))
    }

    /// Adds two intervals.
    @inlinable
    public static func + (lhs: Stride, rhs: Stride) -> Stride {
      Stride(nanoseconds: lhs.magnitude + rhs.magnitude)
    }

    /// Subtracts one interval from another.
    @inlinable
    public static func - (lhs: Stride, rhs: Stride) -> Stride {
      Stride(nanoseconds: lhs.magnitude - rhs.magnitude)
    }

    /// Subtracts the second interval from the first and stores the result in the first.
    @inlinable
    public static func -= (lhs: inout Stride, rhs: Stride) {
      lhs = lhs - rhs
    }

    /// Multiplies the two nanosecond counts and stores the result in the first.
    @inlinable
    public static func *= (lhs: inout Stride, rhs: Stride) {
      lhs = lhs * rhs
    }

    /// Adds the second interval to the first and stores the result in the first.
    @inlinable
    public static func += (lhs: inout Stride, rhs: Stride) {
      lhs = lhs + rhs
    }

    /// Converts the specified number of seconds, as a floating-point value, into a
    /// stride, rounded to the nearest nanosecond.
    @inlinable
    public static func seconds(_ s: Double) -> Stride {
      Stride(nanoseconds: nanoseconds(fromSeconds: s))
    }

    /// Converts the specified number of seconds into a stride.
    @inlinable
    public static func seconds(_ s: Int) -> Stride {
      Stride(.seconds(s))
    }

    /// Converts the specified number of milliseconds into a stride.
    @inlinable
    public static func milliseconds(_ ms: Int) -> Stride {
      Stride(.milliseconds(ms))
    }

    /// Converts the specified number of microseconds into a stride.
    @inlinable
    public static func microseconds(_ us: Int) -> Stride {
      Stride(.microseconds(us))
    }

    /// Converts the specified number of nanoseconds into a stride.
    @inlinable
    public static func nanoseconds(_ ns: Int) -> Stride {
      Stride(nanoseconds: ns)
    }

    /// `value * factor`, saturated at the bounds of `Int`.
    @inlinable
    internal static func product(_ value: Int, _ factor: Int) -> Int {
      let (result, overflow) = value.multipliedReportingOverflow(by: factor)
      guard overflow else { return result }
      return value < 0 ? Int.min : Int.max
    }

    /// Seconds to nanoseconds, rounded to nearest and saturated at the bounds of `Int`.
    @inlinable
    internal static func nanoseconds(fromSeconds seconds: Double) -> Int {
      confluencePrecondition(!seconds.isNaN, "A dispatch queue stride cannot be created from NaN seconds")
      let nanoseconds = (seconds * 1_000_000_000).rounded()
      // Double(Int.max) rounds up to 2^63, which does not fit: compare with >=.
      if nanoseconds >= Double(Int.max) { return Int.max }
      if nanoseconds <= Double(Int.min) { return Int.min }
      return Int(nanoseconds)
    }
  }
}
