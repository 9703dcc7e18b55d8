// Apple's specialised reducing, matching, sequence and error operators on
// `Optional.Publisher`: the answer is known when the operator is applied, so each returns
// another `Optional.Publisher`, a `Just` or an `Empty`, and code naming those types
// (`let n: Optional<Int>.Publisher = Optional(1).publisher.count()`) type-checks as with
// Apple's Combine. Closures run at once, at most once.
//
// As with Apple's overloads, a publisher without a value mostly answers with a publisher
// without a value: `count()`, `reduce`, `contains` and `allSatisfy` of an empty
// `Optional.Publisher` finish without publishing, where the generic operators would publish
// `0`, the initial result, `false` and `true`. `replaceEmpty(with:)` is the way to supply a
// value for that case. `collect()` is the exception: like the generic operator (and like
// `Publishers.Sequence`'s overload), it publishes `[]` when there is nothing to collect.

extension Optional.Publisher {
  /// Collects the output, if any, into an array, now.
  ///
  /// As the generic `collect()` does when upstream finishes, an empty publisher collects
  /// into an empty array: the result always publishes one array.
  ///
  /// ```swift
  /// let all: Optional<[Int]>.Publisher = Optional(1).publisher.collect()   // publishes [1]
  /// let none = Optional<Int>.none.publisher.collect()                       // publishes []
  /// ```
  ///
  /// Back-pressure: as `Optional.Publisher`.
  ///
  /// - Returns: An `Optional.Publisher` of `[output]`, or of `[]` if there is no output.
  @inlinable
  public func collect() -> Optional<[Output]>.Publisher {
    Optional<[Output]>.Publisher(output.map { [$0] } ?? [])
  }

  /// Counts the output, now: 1 if there is one.
  ///
  /// ```swift
  /// let count: Optional<Int>.Publisher = Optional("a").publisher.count()   // publishes 1
  /// ```
  ///
  /// Back-pressure: as `Optional.Publisher`.
  ///
  /// - Returns: An `Optional.Publisher` of `1`, or one without a value if there is no
  ///   output.
  @inlinable
  public func count() -> Optional<Int>.Publisher {
    Optional<Int>.Publisher(output.map { _ in 1 })
  }

  /// The minimum of at most one element: this publisher.
  ///
  /// - Parameter areInIncreasingOrder: Not called; one element has no rival.
  /// - Returns: This publisher.
  @inlinable
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
    self
  }

  /// The maximum of at most one element: this publisher.
  ///
  /// - Parameter areInIncreasingOrder: Not called; one element has no rival.
  /// - Returns: This publisher.
  @inlinable
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
    self
  }

  /// Whether the output satisfies `predicate`, now.
  ///
  /// ```swift
  /// let found: Optional<Bool>.Publisher = Optional(3).publisher.contains { $0 > 2 }   // true
  /// ```
  ///
  /// Back-pressure: as `Optional.Publisher`.
  ///
  /// - Parameter predicate: A closure that tests the output. It is not called if there is
  ///   no output.
  /// - Returns: An `Optional.Publisher` of the answer, or one without a value if there is
  ///   no output.
  @inlinable
  public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(output.map(predicate))
  }

  /// Whether the output satisfies `predicate`, now.
  ///
  /// ```swift
  /// let even: Optional<Bool>.Publisher = Optional(4).publisher.allSatisfy { $0.isMultiple(of: 2) }
  /// ```
  ///
  /// Back-pressure: as `Optional.Publisher`.
  ///
  /// - Parameter predicate: A closure that tests the output. It is not called if there is
  ///   no output.
  /// - Returns: An `Optional.Publisher` of the answer, or one without a value if there is
  ///   no output.
  @inlinable
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(output.map(predicate))
  }

  /// Applies `nextPartialResult` to `initialResult` and the output, now.
  ///
  /// ```swift
  /// let sum: Optional<Int>.Publisher = Optional(2).publisher.reduce(40, +)   // publishes 42
  /// ```
  ///
  /// Back-pressure: as `Optional.Publisher`.
  ///
  /// - Parameters:
  ///   - initialResult: The value passed to the closure with the output.
  ///   - nextPartialResult: A closure that combines the accumulated value and the output.
  ///     It is not called if there is no output.
  /// - Returns: An `Optional.Publisher` of the accumulated value, or one without a value if
  ///   there is no output.
  @inlinable
  public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
  }

  /// The first element: this publisher.
  ///
  /// - Returns: This publisher.
  @inlinable
  public func first() -> Optional<Output>.Publisher {
    self
  }

  /// The first element satisfying `predicate`: the output if it passes, now.
  ///
  /// ```swift
  /// let match: Optional<Int>.Publisher = Optional(3).publisher.first { $0 > 5 }   // finishes empty
  /// ```
  ///
  /// - Parameter predicate: A closure that tests the output. It is not called if there is
  ///   no output.
  /// - Returns: An `Optional.Publisher` of the output if it passes, else of `nil`.
  @inlinable
  public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
  }

  /// The last element: this publisher.
  ///
  /// - Returns: This publisher.
  @inlinable
  public func last() -> Optional<Output>.Publisher {
    self
  }

  /// The last element satisfying `predicate`: the output if it passes, now.
  ///
  /// - Parameter predicate: A closure that tests the output. It is not called if there is
  ///   no output.
  /// - Returns: An `Optional.Publisher` of the output if it passes, else of `nil`.
  @inlinable
  public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
  }

  /// Ignores the output: the result finishes without publishing anything.
  ///
  /// ```swift
  /// let done: Empty<Int, Never> = Optional(1).publisher.ignoreOutput()
  /// ```
  ///
  /// - Returns: An `Empty` publisher that completes immediately.
  @inlinable
  public func ignoreOutput() -> Empty<Output, Failure> {
    Empty()
  }

  /// Publishes `output` if this publisher has no value, else this publisher's output.
  ///
  /// ```swift
  /// let none: Int? = nil
  /// let value: Just<Int> = none.publisher.replaceEmpty(with: 0)   // publishes 0
  /// ```
  ///
  /// - Parameter output: The element to publish when there is no output.
  /// - Returns: A `Just` of the output, or of `output` if there is none.
  @inlinable
  public func replaceEmpty(with output: Output) -> Just<Output> {
    Just<Output>(self.output ?? output)
  }

  /// An `Optional.Publisher` never fails, so this is the same publisher.
  ///
  /// - Parameter output: Unused.
  /// - Returns: This publisher.
  @inlinable
  public func replaceError(with output: Output) -> Optional<Output>.Publisher {
    self
  }

  /// An `Optional.Publisher` never fails, so there is nothing to retry: the same
  /// publisher.
  ///
  /// - Parameter times: Unused.
  /// - Returns: This publisher.
  @inlinable
  public func retry(_ times: Int) -> Optional<Output>.Publisher {
    self
  }
}

extension Optional.Publisher where Wrapped: Comparable {
  /// The minimum of at most one element: this publisher.
  ///
  /// - Returns: This publisher.
  @inlinable
  public func min() -> Optional<Wrapped>.Publisher {
    self
  }

  /// The maximum of at most one element: this publisher.
  ///
  /// - Returns: This publisher.
  @inlinable
  public func max() -> Optional<Wrapped>.Publisher {
    self
  }
}

extension Optional.Publisher where Wrapped: Equatable {
  /// Whether the output equals `output`, now.
  ///
  /// ```swift
  /// let found: Optional<Bool>.Publisher = Optional(3).publisher.contains(3)   // publishes true
  /// ```
  ///
  /// Back-pressure: as `Optional.Publisher`.
  ///
  /// - Parameter output: The element to compare with.
  /// - Returns: An `Optional.Publisher` of the answer, or one without a value if there is
  ///   no output.
  @inlinable
  public func contains(_ output: Output) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(self.output.map { $0 == output })
  }
}
