// Apple's specialised mapping, filtering and sequence operators on `Optional.Publisher`:
// they apply the closure to the optional's value, if any, at once, and return another
// `Optional.Publisher`.

extension Optional.Publisher {
  /// Transforms the value, if any, with a closure returning an optional, now.
  ///
  /// ```swift
  /// let number: Optional<Int>.Publisher = Optional("12").publisher.compactMap { Int($0) }   // 12
  /// ```
  ///
  /// Back-pressure: as `Optional.Publisher`.
  ///
  /// - Parameter transform: A closure that takes the value and returns an optional.
  /// - Returns: An `Optional.Publisher` of the closure's result.
  @inlinable
  public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.flatMap(transform))
  }

  /// Combines the initial result with the value, if any, now.
  ///
  /// ```swift
  /// let total: Optional<Int>.Publisher = Optional(5).publisher.scan(10) { $0 + $1 }   // 15
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value to combine the output with.
  ///   - nextPartialResult: A closure that combines the initial result and the value.
  /// - Returns: An `Optional.Publisher` of the combined value, or of `nil`.
  @inlinable
  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
  }

  /// Returns this publisher: a single value has no duplicates.
  ///
  /// ```swift
  /// let same: Optional<Int>.Publisher = Optional(1).publisher.removeDuplicates { $0 == $1 }
  /// ```
  ///
  /// - Parameter predicate: Never called.
  /// - Returns: This publisher.
  @inlinable
  public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
    self
  }

  /// Drops the value if `count` is positive.
  ///
  /// ```swift
  /// let nothing: Optional<Int>.Publisher = Optional(1).publisher.dropFirst()
  /// ```
  ///
  /// - Parameter count: The number of elements to omit; must not be negative.
  /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
  @inlinable
  public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
    confluencePrecondition(count >= 0, "dropFirst(_:): count must not be negative (got \(count))")
    return Optional<Output>.Publisher(count == 0 ? output : nil)
  }

  /// Drops the value if `predicate` holds for it.
  ///
  /// ```swift
  /// let kept: Optional<Int>.Publisher = Optional(5).publisher.drop { $0 < 3 }   // 5
  /// ```
  ///
  /// - Parameter predicate: A closure that returns whether to drop the value.
  /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
  @inlinable
  public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(output.flatMap { predicate($0) ? nil : $0 })
  }

  /// Publishes the value if `maxLength` is positive.
  ///
  /// ```swift
  /// let one: Optional<Int>.Publisher = Optional(1).publisher.prefix(3)   // 1
  /// ```
  ///
  /// - Parameter maxLength: The maximum number of elements to publish; must not be
  ///   negative.
  /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
  @inlinable
  public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
    confluencePrecondition(maxLength >= 0, "prefix(_:): maxLength must not be negative (got \(maxLength))")
    return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
  }

  /// Publishes the value if `predicate` holds for it.
  ///
  /// ```swift
  /// let none: Optional<Int>.Publisher = Optional(5).publisher.prefix { $0 < 3 }
  /// ```
  ///
  /// - Parameter predicate: A closure that returns whether to publish the value.
  /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
  @inlinable
  public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
  }

  /// Publishes the value if `index` is 0.
  ///
  /// ```swift
  /// let first: Optional<Int>.Publisher = Optional(1).publisher.output(at: 0)   // 1
  /// ```
  ///
  /// - Parameter index: The index of the element to publish; must not be negative.
  /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
  @inlinable
  public func output(at index: Int) -> Optional<Output>.Publisher {
    confluencePrecondition(index >= 0, "output(at:): index must not be negative (got \(index))")
    return Optional<Output>.Publisher(index == 0 ? output : nil)
  }

  /// Publishes the value if `range` starts at 0 and is not empty.
  ///
  /// Apple's rule for `Optional.Publisher` (stricter than ``Just``'s, which looks only at
  /// where the range starts): the value is published when the range, taken relative to
  /// `0..<Int.max`, starts at 0 and ends after 0, so `0..<0` publishes nothing. A range
  /// that starts below 0, or that reaches `Int.max - 1` or beyond (a range with no upper
  /// bound such as `0...`, too), traps.
  ///
  /// ```swift
  /// let first: Optional<Int>.Publisher = Optional(1).publisher.output(in: 0..<2)   // 1
  /// let none: Optional<Int>.Publisher = Optional(1).publisher.output(in: 0..<0)    // finishes empty
  /// ```
  ///
  /// - Parameter range: The range of indices to publish; its lower bound must not be
  ///   negative and its upper bound must be below `Int.max - 1`.
  /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
  @inlinable
  public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
    let bounds = range.relative(to: 0..<Int.max)
    confluencePrecondition(
      bounds.lowerBound >= 0, "output(in:): the range's lower bound must not be negative (got \(bounds.lowerBound))")
    confluencePrecondition(
      bounds.upperBound < Int.max - 1,
      "output(in:): the range's upper bound must be below Int.max - 1 (got \(bounds.upperBound))")
    return Optional<Output>.Publisher(bounds.lowerBound == 0 && bounds.upperBound != 0 ? output : nil)
  }
}

extension Optional.Publisher where Output: Equatable {
  /// Returns this publisher: a single value has no duplicates.
  ///
  /// ```swift
  /// let same: Optional<Int>.Publisher = Optional(1).publisher.removeDuplicates()
  /// ```
  ///
  /// - Returns: This publisher.
  @inlinable
  public func removeDuplicates() -> Optional<Output>.Publisher {
    self
  }
}
