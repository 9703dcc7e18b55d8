// Apple's specialised mapping, filtering and sequence operators on `Just`: they run the
// closure once, at once, and return a publisher of the result (`Just`, `Optional.Publisher`
// or `Result.Publisher`), so that code naming the result type type-checks as with Apple's
// Combine.

extension Just {
  /// Transforms the output with an error-throwing closure, now.
  ///
  /// ```swift
  /// let parsed: Result<Int, any Error>.Publisher = Just("42").tryMap { try parse($0) }
  /// ```
  ///
  /// Back-pressure: as `Result.Publisher`.
  ///
  /// - Parameter transform: A closure that takes the output and returns a new element, or
  ///   throws.
  /// - Returns: A `Result.Publisher` of the transformed output, or of the thrown error.
  @inlinable
  public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(Result { try transform(output) })
  }

  /// Changes the failure type; a `Just` never fails, so `transform` is never called.
  ///
  /// ```swift
  /// let typed: Result<Int, URLError>.Publisher = Just(1).mapError { _ in URLError(.unknown) }
  /// ```
  ///
  /// Back-pressure: as `Result.Publisher`.
  ///
  /// - Parameter transform: A closure converting the (impossible) failure.
  /// - Returns: A `Result.Publisher` of the output that appears able to fail with `E`.
  @inlinable
  public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
    Result<Output, E>.Publisher(output)
  }

  /// Combines the initial result with the output, now.
  ///
  /// ```swift
  /// let total: Result<Int, Never>.Publisher = Just(5).scan(10) { $0 + $1 }   // 15
  /// ```
  ///
  /// Back-pressure: as `Result.Publisher`.
  ///
  /// - Parameters:
  ///   - initialResult: The value to combine the output with.
  ///   - nextPartialResult: A closure that combines the initial result and the output.
  /// - Returns: A `Result.Publisher` of the combined value.
  @inlinable
  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(nextPartialResult(initialResult, output))
  }

  /// Combines the initial result with the output using an error-throwing closure, now.
  ///
  /// ```swift
  /// let total: Result<Int, any Error>.Publisher = Just(5).tryScan(10) { try add($0, $1) }
  /// ```
  ///
  /// Back-pressure: as `Result.Publisher`.
  ///
  /// - Parameters:
  ///   - initialResult: The value to combine the output with.
  ///   - nextPartialResult: An error-throwing closure that combines the initial result
  ///     and the output.
  /// - Returns: A `Result.Publisher` of the combined value, or of the thrown error.
  @inlinable
  public func tryScan<T>(
    _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
  ) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
  }

  /// Presents the output as a publisher that appears able to fail with `E`.
  ///
  /// ```swift
  /// let typed: Result<Int, URLError>.Publisher = Just(1).setFailureType(to: URLError.self)
  /// ```
  ///
  /// Back-pressure: as `Result.Publisher`.
  ///
  /// - Parameter failureType: The `Failure` type presented by the result.
  /// - Returns: A `Result.Publisher` of the output.
  @inlinable
  public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
    Result<Output, E>.Publisher(output)
  }

  /// Transforms the output with a closure returning an optional, now.
  ///
  /// ```swift
  /// let number: Optional<Int>.Publisher = Just("x").compactMap { Int($0) }   // finishes empty
  /// ```
  ///
  /// Back-pressure: as `Optional.Publisher`.
  ///
  /// - Parameter transform: A closure that takes the output and returns an optional.
  /// - Returns: An `Optional.Publisher` of the closure's result.
  @inlinable
  public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
    Optional<T>.Publisher(transform(output))
  }

  /// Returns this `Just`: a single value has no duplicates.
  ///
  /// ```swift
  /// let same: Just<Int> = Just(1).removeDuplicates { $0 == $1 }
  /// ```
  ///
  /// - Parameter predicate: Never called.
  /// - Returns: This publisher.
  @inlinable
  public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> {
    self
  }

  /// Presents the output as a publisher that can fail. A single value has no duplicates,
  /// but, as in Apple's Combine, `predicate` is called once, with the output as both
  /// arguments, so that an error it throws becomes the failure.
  ///
  /// ```swift
  /// let same: Result<Int, any Error>.Publisher = Just(1).tryRemoveDuplicates { try same($0, $1) }
  /// ```
  ///
  /// - Parameter predicate: Called once with `(output, output)`; its answer is ignored.
  /// - Returns: A `Result.Publisher` of the output, or of the error `predicate` threw.
  @inlinable
  public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher
  {
    Result<Output, any Error>.Publisher(
      Result {
        _ = try predicate(output, output)
        return output
      })
  }

  /// Drops the output if `count` is positive.
  ///
  /// ```swift
  /// let nothing: Optional<Int>.Publisher = Just(1).dropFirst()   // finishes empty
  /// ```
  ///
  /// - Parameter count: The number of elements to omit; must not be negative.
  /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
  @inlinable
  public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
    confluencePrecondition(count >= 0, "dropFirst(_:): count must not be negative (got \(count))")
    return Optional<Output>.Publisher(count == 0 ? output : nil)
  }

  /// Drops the output if `predicate` holds for it.
  ///
  /// ```swift
  /// let kept: Optional<Int>.Publisher = Just(5).drop { $0 < 3 }   // 5
  /// ```
  ///
  /// - Parameter predicate: A closure that returns whether to drop the output.
  /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
  @inlinable
  public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? nil : output)
  }

  /// Publishes the output if `maxLength` is positive.
  ///
  /// ```swift
  /// let one: Optional<Int>.Publisher = Just(1).prefix(3)   // 1
  /// ```
  ///
  /// - Parameter maxLength: The maximum number of elements to publish; must not be
  ///   negative.
  /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
  @inlinable
  public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
    confluencePrecondition(maxLength >= 0, "prefix(_:): maxLength must not be negative (got \(maxLength))")
    return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
  }

  /// Publishes the output if `predicate` holds for it.
  ///
  /// ```swift
  /// let none: Optional<Int>.Publisher = Just(5).prefix { $0 < 3 }   // finishes empty
  /// ```
  ///
  /// - Parameter predicate: A closure that returns whether to publish the output.
  /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
  @inlinable
  public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  /// Publishes the output if `index` is 0.
  ///
  /// ```swift
  /// let first: Optional<Int>.Publisher = Just(1).output(at: 0)   // 1
  /// ```
  ///
  /// - Parameter index: The index of the element to publish; must not be negative.
  /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
  @inlinable
  public func output(at index: Int) -> Optional<Output>.Publisher {
    confluencePrecondition(index >= 0, "output(at:): index must not be negative (got \(index))")
    return Optional<Output>.Publisher(index == 0 ? output : nil)
  }

  /// Publishes the output if `range` starts at 0.
  ///
  /// This is Apple's rule, which looks only at where the range starts: `0..<0` publishes
  /// the output, `-10..<10` and `1...3` do not, and a negative start does not trap.
  ///
  /// ```swift
  /// let none: Optional<Int>.Publisher = Just(1).output(in: 1...3)   // finishes empty
  /// ```
  ///
  /// - Parameter range: The range of indices to publish.
  /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
  @inlinable
  public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
    Optional<Output>.Publisher(range.relative(to: 0..<Int.max).lowerBound == 0 ? output : nil)
  }
}

extension Just where Output: Equatable {
  /// Returns this `Just`: a single value has no duplicates.
  ///
  /// ```swift
  /// let same: Just<Int> = Just(1).removeDuplicates()
  /// ```
  ///
  /// - Returns: This publisher.
  @inlinable
  public func removeDuplicates() -> Just<Output> {
    self
  }
}
