extension Subscribers {
  /// A requested number of items, sent to a publisher from a subscriber through the
  /// subscription.
  ///
  /// Demand is additive: each request adds to what was requested before. Arithmetic
  /// saturates: anything added to ``unlimited`` stays unlimited, two finite demands whose
  /// sum exceeds `Int.max` become unlimited, and subtraction never goes below
  /// `.max(0)`.
  ///
  /// ```swift
  /// var demand = Subscribers.Demand.max(2)
  /// demand += 3          // max(5)
  /// demand -= 10         // max(0)
  /// demand += .unlimited // unlimited
  /// ```
  ///
  /// Creating a negative demand with ``max(_:)`` is a programming error and traps.
  @frozen
  public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible, Sendable {
    /// `0...Int.max` for finite demand, `UInt(bitPattern: Int.min)` (`Int.max + 1`) for
    /// unlimited.
    @usableFromInline
    internal let rawValue: UInt

    // Written for unoptimised builds (`CONFLUENCE_UNOPTIMISED=1`, see Package.swift), where every call
    // below stays a call; an optimised build makes the same machine code of any spelling.
    // The conversions are `bitPattern:` ones, each where the value is known to fit (finite
    // raw values are at most `Int.max`; integers are checked non-negative first), because
    // `Swift.min` and `Int(_:)` / `UInt(_:)` are generic calls there. The unlimited raw value
    // is spelled out, `UInt(bitPattern: Int.min)`, which is inlined where a static property
    // would be a call; a value known to be in range is stored as it is
    // (`init(exactRawValue:)`); and comparisons test `isUnlimited` instead of forming
    // ``unlimited`` (`demand > 0` was seven calls).

    @inlinable
    internal init(rawValue: UInt) {
      self.rawValue = rawValue < UInt(bitPattern: Int.min) ? rawValue : UInt(bitPattern: Int.min)
    }

    /// A demand whose raw value is known to be at most `UInt(bitPattern: Int.min)`.
    @inlinable
    internal init(exactRawValue: UInt) {
      self.rawValue = exactRawValue
    }

    /// Whether this is ``unlimited``.
    @inlinable
    internal var isUnlimited: Bool { rawValue == UInt(bitPattern: Int.min) }

    /// A request for as many values as the publisher can produce.
    @inlinable
    public static var unlimited: Demand { Demand(exactRawValue: UInt(bitPattern: Int.min)) }

    /// A request for no elements from the publisher.
    ///
    /// This is equivalent to `Demand.max(0)`.
    @inlinable
    public static var none: Demand { Demand(exactRawValue: 0) }

    /// Creates a demand for the given maximum number of elements.
    ///
    /// The publisher is free to send fewer than the requested maximum number of elements.
    ///
    /// - Parameter value: The maximum number of elements. Providing a negative value for
    ///   this parameter results in a fatal error.
    @inlinable
    public static func max(_ value: Int) -> Demand {
      confluencePrecondition(value >= 0, "Subscribers.Demand.max(\(value)): a demand must not be negative")
      return Demand(exactRawValue: UInt(bitPattern: value))
    }

    /// The number of requested values, or `nil` if the demand is ``unlimited``.
    @inlinable
    public var max: Int? {
      isUnlimited ? nil : Int(bitPattern: rawValue)
    }

    /// `unlimited` or `max(n)`.
    public var description: String {
      if let max {
        return "max(\(max))"
      }
      return "unlimited"
    }

    // MARK: Addition

    /// Returns the result of adding two demands. When adding any value to ``unlimited``,
    /// the result is ``unlimited``.
    @inlinable
    public static func + (lhs: Demand, rhs: Demand) -> Demand {
      let (sum, overflow) = lhs.rawValue.addingReportingOverflow(rhs.rawValue)
      return overflow ? .unlimited : Demand(rawValue: sum)
    }

    /// Adds two demands, and assigns the result to the first demand.
    @inlinable
    public static func += (lhs: inout Demand, rhs: Demand) {
      lhs = lhs + rhs
    }

    /// Returns the result of adding an integer to a demand. When adding any value to
    /// ``unlimited``, the result is ``unlimited``; a negative result becomes `.max(0)`.
    @inlinable
    public static func + (lhs: Demand, rhs: Int) -> Demand {
      if lhs.isUnlimited { return .unlimited }
      let (sum, overflow) = Int(bitPattern: lhs.rawValue).addingReportingOverflow(rhs)
      if overflow { return .unlimited }  // only a positive `rhs` can overflow here
      return sum < 0 ? .none : Demand(rawValue: UInt(bitPattern: sum))
    }

    /// Adds an integer to a demand, and assigns the result to the demand.
    @inlinable
    public static func += (lhs: inout Demand, rhs: Int) {
      lhs = lhs + rhs
    }

    // MARK: Multiplication

    /// Returns the result of multiplying a demand by an integer. When multiplying
    /// ``unlimited`` by any value, the result is ``unlimited``. A negative multiplier traps.
    @inlinable
    public static func * (lhs: Demand, rhs: Int) -> Demand {
      confluencePrecondition(
        rhs >= 0, "Subscribers.Demand * \(rhs): a demand must not be multiplied by a negative number")
      if lhs.isUnlimited { return .unlimited }
      let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(bitPattern: rhs))
      return overflow ? .unlimited : Demand(rawValue: product)
    }

    /// Multiplies a demand by an integer, and assigns the result to the demand.
    @inlinable
    public static func *= (lhs: inout Demand, rhs: Int) {
      lhs = lhs * rhs
    }

    // MARK: Subtraction

    /// Returns the result of subtracting one demand from another.
    ///
    /// When subtracting any value (including ``unlimited``) from ``unlimited``, the result
    /// is still ``unlimited``. Subtracting ``unlimited`` from any finite value results in
    /// `.max(0)`. A result that would be negative becomes `.max(0)`.
    @inlinable
    public static func - (lhs: Demand, rhs: Demand) -> Demand {
      if lhs.isUnlimited { return .unlimited }
      if rhs.isUnlimited { return .none }
      return lhs.rawValue >= rhs.rawValue ? Demand(exactRawValue: lhs.rawValue &- rhs.rawValue) : .none
    }

    /// Subtracts one demand from another, and assigns the result to the first demand.
    @inlinable
    public static func -= (lhs: inout Demand, rhs: Demand) {
      lhs = lhs - rhs
    }

    /// Returns the result of subtracting an integer from a demand. When subtracting any
    /// value from ``unlimited``, the result is still ``unlimited``; a result that would be
    /// negative becomes `.max(0)`.
    ///
    /// Subtracting a negative number adds its magnitude; a finite result past `Int.max`
    /// becomes `.max(0)`, as in Apple's Combine (`.max(Int.max) - (-1)` is `.max(0)`).
    @inlinable
    public static func - (lhs: Demand, rhs: Int) -> Demand {
      if lhs.isUnlimited { return .unlimited }
      if rhs < 0 {
        let (difference, overflow) = Int(bitPattern: lhs.rawValue).subtractingReportingOverflow(rhs)
        return overflow ? .none : Demand(rawValue: UInt(bitPattern: difference))
      }
      return lhs - Demand(exactRawValue: UInt(bitPattern: rhs))
    }

    /// Subtracts an integer from a demand, and assigns the result to the demand.
    @inlinable
    public static func -= (lhs: inout Demand, rhs: Int) {
      lhs = lhs - rhs
    }

    // MARK: Comparison

    /// Returns a Boolean value that indicates whether the first demand requests fewer
    /// elements than the second. ``unlimited`` is greater than every finite demand.
    @inlinable
    public static func < (lhs: Demand, rhs: Demand) -> Bool {
      lhs.rawValue < rhs.rawValue
    }

    /// Returns a Boolean value that indicates whether two demands are equal.
    @inlinable
    public static func == (lhs: Demand, rhs: Demand) -> Bool {
      lhs.rawValue == rhs.rawValue
    }

    /// Returns a Boolean value indicating whether a demand requests more than the given
    /// number of elements. ``unlimited`` is greater than every integer.
    @inlinable
    public static func > (lhs: Demand, rhs: Int) -> Bool {
      lhs.isUnlimited || Int(bitPattern: lhs.rawValue) > rhs
    }

    /// Returns a Boolean value indicating whether a demand requests at least the given
    /// number of elements.
    @inlinable
    public static func >= (lhs: Demand, rhs: Int) -> Bool {
      lhs.isUnlimited || Int(bitPattern: lhs.rawValue) >= rhs
    }

    /// Returns a Boolean value indicating whether the integer is greater than the demand.
    @inlinable
    public static func > (lhs: Int, rhs: Demand) -> Bool {
      !rhs.isUnlimited && lhs > Int(bitPattern: rhs.rawValue)
    }

    /// Returns a Boolean value indicating whether the integer is at least the demand.
    @inlinable
    public static func >= (lhs: Int, rhs: Demand) -> Bool {
      !rhs.isUnlimited && lhs >= Int(bitPattern: rhs.rawValue)
    }

    /// Returns a Boolean value indicating whether a demand requests fewer than the given
    /// number of elements. ``unlimited`` is never less than an integer.
    @inlinable
    public static func < (lhs: Demand, rhs: Int) -> Bool {
      !lhs.isUnlimited && Int(bitPattern: lhs.rawValue) < rhs
    }

    /// Returns a Boolean value indicating whether the integer is less than the demand.
    @inlinable
    public static func < (lhs: Int, rhs: Demand) -> Bool {
      rhs.isUnlimited || lhs < Int(bitPattern: rhs.rawValue)
    }

    /// Returns a Boolean value indicating whether a demand requests at most the given
    /// number of elements.
    @inlinable
    public static func <= (lhs: Demand, rhs: Int) -> Bool {
      !lhs.isUnlimited && Int(bitPattern: lhs.rawValue) <= rhs
    }

    /// Returns a Boolean value indicating whether the integer is at most the demand.
    @inlinable
    public static func <= (lhs: Int, rhs: Demand) -> Bool {
      rhs.isUnlimited || lhs <= Int(bitPattern: rhs.rawValue)
    }

    /// Returns a Boolean value indicating whether a demand is equal to an integer.
    /// ``unlimited`` equals no integer.
    @inlinable
    public static func == (lhs: Demand, rhs: Int) -> Bool {
      !lhs.isUnlimited && Int(bitPattern: lhs.rawValue) == rhs
    }

    /// Returns a Boolean value indicating whether a demand is not equal to an integer.
    @inlinable
    public static func != (lhs: Demand, rhs: Int) -> Bool {
      !(lhs == rhs)
    }

    /// Returns a Boolean value indicating whether an integer is equal to a demand.
    @inlinable
    public static func == (lhs: Int, rhs: Demand) -> Bool {
      rhs == lhs
    }

    /// Returns a Boolean value indicating whether an integer is not equal to a demand.
    @inlinable
    public static func != (lhs: Int, rhs: Demand) -> Bool {
      !(rhs == lhs)
    }

    // MARK: Codable

    /// Creates a demand instance from a decoder.
    ///
    /// The encoding is an unsigned integer: the number of values, or `Int.max + 1` for
    /// ``unlimited``. As in Apple's Combine, anything larger decodes as ``unlimited``; a
    /// negative number is not an unsigned integer and fails to decode.
    public init(from decoder: Decoder) throws {
      let container = try decoder.singleValueContainer()
      self.init(rawValue: try container.decode(UInt.self))
    }

    /// Encodes the demand to the provided encoder.
    public func encode(to encoder: Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue)
    }
  }
}
