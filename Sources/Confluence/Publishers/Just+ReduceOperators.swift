// Apple's specialised reducing, matching, sequence and error operators on `Just`: the
// answer is known when the operator is applied, so each returns a `Just`, a
// `Result.Publisher`, an `Optional.Publisher`, an `Empty` or a `Publishers.Sequence` of it,
// and code naming those types (`let n: Just<Int> = Just(1).count()`) type-checks as with
// Apple's Combine. Closures run once, immediately.

extension Just {
  /// Collects the output into a one-element array, now.
  ///
  /// ```swift
  /// let all: Just<[Int]> = Just(1).collect()   // publishes [1]
  /// ```
  ///
  /// - Returns: A `Just` of `[output]`.
  @inlinable
  public func collect() -> Just<[Output]> {
    Just<[Output]>([output])
  }

  /// Counts the output, now: always 1.
  ///
  /// ```swift
  /// let count: Just<Int> = Just("a").count()   // publishes 1
  /// ```
  ///
  /// - Returns: A `Just` of `1`.
  @inlinable
  public func count() -> Just<Int> {
    Just<Int>(1)
  }

  /// Ignores the output: the result finishes without publishing anything.
  ///
  /// ```swift
  /// let done: Empty<Int, Never> = Just(1).ignoreOutput()
  /// ```
  ///
  /// - Returns: An `Empty` publisher that completes immediately.
  @inlinable
  public func ignoreOutput() -> Empty<Output, Never> {
    Empty()
  }

  /// Applies `nextPartialResult` to `initialResult` and the output, now.
  ///
  /// ```swift
  /// let sum: Result<Int, Never>.Publisher = Just(2).reduce(40, +)   // publishes 42
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value passed to the closure with the output.
  ///   - nextPartialResult: A closure that combines the accumulated value and the output.
  /// - Returns: A `Result.Publisher` of the accumulated value.
  @inlinable
  public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
    Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
  }

  /// Applies the throwing `nextPartialResult` to `initialResult` and the output, now.
  ///
  /// ```swift
  /// let product: Result<Int, Error>.Publisher = Just(2).tryReduce(21) { $0 * $1 }
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value passed to the closure with the output.
  ///   - nextPartialResult: A throwing closure that combines the accumulated value and the
  ///     output.
  /// - Returns: A `Result.Publisher` of the accumulated value, or of the thrown error.
  @inlinable
  public func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
  ) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
  }

  /// The minimum of one element: the output itself.
  ///
  /// - Parameter areInIncreasingOrder: Not called; one element has no rival.
  /// - Returns: This `Just`.
  @inlinable
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> {
    self
  }

  /// The maximum of one element: the output itself.
  ///
  /// - Parameter areInIncreasingOrder: Not called; one element has no rival.
  /// - Returns: This `Just`.
  @inlinable
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> {
    self
  }

  /// Whether the output satisfies `predicate`, now.
  ///
  /// ```swift
  /// let found: Just<Bool> = Just(3).contains { $0 > 2 }   // publishes true
  /// ```
  ///
  /// - Parameter predicate: A closure that tests the output.
  /// - Returns: A `Just` of the answer.
  @inlinable
  public func contains(where predicate: (Output) -> Bool) -> Just<Bool> {
    Just<Bool>(predicate(output))
  }

  /// Whether the output satisfies the throwing `predicate`, now.
  ///
  /// - Parameter predicate: A throwing closure that tests the output.
  /// - Returns: A `Result.Publisher` of the answer, or of the thrown error.
  @inlinable
  public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
    Result<Bool, any Error>.Publisher(Result { try predicate(output) })
  }

  /// Whether the output (all of the one element) satisfies `predicate`, now.
  ///
  /// ```swift
  /// let all: Just<Bool> = Just(4).allSatisfy { $0.isMultiple(of: 2) }   // publishes true
  /// ```
  ///
  /// - Parameter predicate: A closure that tests the output.
  /// - Returns: A `Just` of the answer.
  @inlinable
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> {
    Just<Bool>(predicate(output))
  }

  /// Whether the output satisfies the throwing `predicate`, now.
  ///
  /// - Parameter predicate: A throwing closure that tests the output.
  /// - Returns: A `Result.Publisher` of the answer, or of the thrown error.
  @inlinable
  public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
    Result<Bool, any Error>.Publisher(Result { try predicate(output) })
  }

  /// The first element: the output itself.
  ///
  /// - Returns: This `Just`.
  @inlinable
  public func first() -> Just<Output> {
    self
  }

  /// The first element satisfying `predicate`: the output, or nothing.
  ///
  /// ```swift
  /// let match: Optional<Int>.Publisher = Just(3).first { $0 > 5 }   // finishes empty
  /// ```
  ///
  /// - Parameter predicate: A closure that tests the output.
  /// - Returns: An `Optional.Publisher` of the output if it passes, else of `nil`.
  @inlinable
  public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  /// The last element: the output itself.
  ///
  /// - Returns: This `Just`.
  @inlinable
  public func last() -> Just<Output> {
    self
  }

  /// The last element satisfying `predicate`: the output, or nothing.
  ///
  /// - Parameter predicate: A closure that tests the output.
  /// - Returns: An `Optional.Publisher` of the output if it passes, else of `nil`.
  @inlinable
  public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  /// A `Just` is never empty, so this is the same `Just`.
  ///
  /// - Parameter output: Unused.
  /// - Returns: This `Just`.
  @inlinable
  public func replaceEmpty(with output: Output) -> Just<Output> {
    self
  }

  /// A `Just` never fails, so this is the same `Just`.
  ///
  /// - Parameter output: Unused.
  /// - Returns: This `Just`.
  @inlinable
  public func replaceError(with output: Output) -> Just<Output> {
    self
  }

  /// A `Just` never fails, so there is nothing to retry: the same `Just`.
  ///
  /// - Parameter times: Unused.
  /// - Returns: This `Just`.
  @inlinable
  public func retry(_ times: Int) -> Just<Output> {
    self
  }

  /// Publishes the output followed by `elements`.
  ///
  /// ```swift
  /// let all: Publishers.Sequence<[Int], Never> = Just(1).append(2, 3)   // 1, 2, 3
  /// ```
  ///
  /// Back-pressure: as `Publishers.Sequence`.
  ///
  /// - Parameter elements: Elements to publish after the output.
  /// - Returns: A sequence publisher of the output and then `elements`.
  @inlinable
  public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
    Publishers.Sequence(sequence: [output] + elements)
  }

  /// Publishes the output followed by the elements of `elements`.
  ///
  /// - Parameter elements: A sequence of elements to publish after the output.
  /// - Returns: A sequence publisher of the output and then `elements`.
  @inlinable
  public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where Output == S.Element {
    Publishers.Sequence(sequence: [output] + elements)
  }

  /// Publishes `elements` followed by the output.
  ///
  /// ```swift
  /// let all: Publishers.Sequence<[Int], Never> = Just(3).prepend(1, 2)   // 1, 2, 3
  /// ```
  ///
  /// - Parameter elements: Elements to publish before the output.
  /// - Returns: A sequence publisher of `elements` and then the output.
  @inlinable
  public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
    Publishers.Sequence(sequence: elements + [output])
  }

  /// Publishes the elements of `elements` followed by the output.
  ///
  /// - Parameter elements: A sequence of elements to publish before the output.
  /// - Returns: A sequence publisher of `elements` and then the output.
  @inlinable
  public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where Output == S.Element {
    var combined: [Output] = []
    combined.reserveCapacity(elements.underestimatedCount + 1)
    combined.append(contentsOf: elements)
    combined.append(output)
    return Publishers.Sequence(sequence: combined)
  }
}

extension Just where Output: Comparable {
  /// The minimum of one element: the output itself.
  ///
  /// - Returns: This `Just`.
  @inlinable
  public func min() -> Just<Output> {
    self
  }

  /// The maximum of one element: the output itself.
  ///
  /// - Returns: This `Just`.
  @inlinable
  public func max() -> Just<Output> {
    self
  }
}

extension Just where Output: Equatable {
  /// Whether the output equals `output`, now.
  ///
  /// ```swift
  /// let found: Just<Bool> = Just(3).contains(3)   // publishes true
  /// ```
  ///
  /// - Parameter output: The element to compare with.
  /// - Returns: A `Just` of the answer.
  @inlinable
  public func contains(_ output: Output) -> Just<Bool> {
    Just<Bool>(self.output == output)
  }
}
