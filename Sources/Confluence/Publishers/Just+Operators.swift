// Apple's specialised operators on `Just` for the operators that exist so far: they run
// the closure at once and return a publisher of the result, so that code naming the
// result type (`let p: Just<String> = Just(1).map { "\($0)" }`) type-checks as with
// Apple's Combine. Other operators add their `Just` overloads beside their own files.

extension Just {
  /// Transforms the output with a provided closure, now, and returns a `Just` of the
  /// result.
  ///
  /// Unlike ``Publisher/map(_:)->Publishers.Map<Self,T>``, the closure runs once, immediately, and the result is
  /// still a `Just`:
  ///
  /// ```swift
  /// let greeting: Just<String> = Just(1).map { "#\($0)" }
  /// let cancellable = greeting.sink { print($0) }   // prints "#1"
  /// ```
  ///
  /// Back-pressure: as ``Just``.
  ///
  /// - Parameter transform: A closure that takes the output as its parameter and returns
  ///   a new element.
  /// - Returns: A `Just` that publishes the transformed output.
  @inlinable
  public func map<T>(_ transform: (Output) -> T) -> Just<T> {
    Just<T>(transform(output))
  }

  /// Tests the output with a provided closure, now, and returns a publisher of the
  /// output if it passes, or one that finishes without a value if it does not.
  ///
  /// ```swift
  /// let even: Optional<Int>.Publisher = Just(3).filter { $0.isMultiple(of: 2) }
  /// let cancellable = even.sink { print($0) }   // prints nothing; finishes
  /// ```
  ///
  /// Back-pressure: as `Optional.Publisher`.
  ///
  /// - Parameter isIncluded: A closure that takes the output and returns whether to
  ///   publish it.
  /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
  @inlinable
  public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional.Publisher(isIncluded(output) ? output : nil)
  }
}
