// Apple's specialised reducing, matching, sequence and error operators on
// `Result.Publisher`: the answer is known when the operator is applied, so each returns
// another `Result.Publisher` (or an `Empty`), and code naming those types
// (`let n: Result<Int, E>.Publisher = r.publisher.count()`) type-checks as with Apple's
// Combine. Closures run at once, at most once, and only for a success; a failure passes
// through (as `any Error` for the throwing forms).

extension Result.Publisher {
  /// Collects a success into a one-element array, now; a failure passes through.
  ///
  /// ```swift
  /// let all: Result<[Int], TestError>.Publisher = Result<Int, TestError>.success(1).publisher.collect()
  /// ```
  ///
  /// Back-pressure: as `Result.Publisher`.
  ///
  /// - Returns: A `Result.Publisher` of `[output]`, or of the failure.
  @inlinable
  public func collect() -> Result<[Output], Failure>.Publisher {
    Result<[Output], Failure>.Publisher(result.map { [$0] })
  }

  /// Counts a success, now: always 1; a failure passes through.
  ///
  /// ```swift
  /// let count: Result<Int, TestError>.Publisher = Result<String, TestError>.success("a").publisher.count()
  /// ```
  ///
  /// Back-pressure: as `Result.Publisher`.
  ///
  /// - Returns: A `Result.Publisher` of `1`, or of the failure.
  @inlinable
  public func count() -> Result<Int, Failure>.Publisher {
    Result<Int, Failure>.Publisher(result.map { _ in 1 })
  }

  /// The minimum of one element: this publisher.
  ///
  /// - Parameter areInIncreasingOrder: Not called; one element has no rival.
  /// - Returns: This publisher.
  @inlinable
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
    self
  }

  /// The minimum of one element: the same result, with the failure type widened to
  /// `any Error`. As in Apple's Combine, on success `areInIncreasingOrder` is called once,
  /// with the value as both arguments, so that an error it throws becomes the failure.
  ///
  /// - Parameter areInIncreasingOrder: Called once with `(value, value)` on success; its
  ///   answer is ignored.
  /// - Returns: A `Result.Publisher` of the output, the failure, or the thrown error.
  @inlinable
  public func tryMin(
    by areInIncreasingOrder: (Output, Output) throws -> Bool
  ) -> Result<Output, any Error>.Publisher {
    Result<Output, any Error>.Publisher(result.callingOnce(areInIncreasingOrder))
  }

  /// The maximum of one element: this publisher.
  ///
  /// - Parameter areInIncreasingOrder: Not called; one element has no rival.
  /// - Returns: This publisher.
  @inlinable
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
    self
  }

  /// The maximum of one element: the same result, with the failure type widened to
  /// `any Error`. As in Apple's Combine, on success `areInIncreasingOrder` is called once,
  /// with the value as both arguments, so that an error it throws becomes the failure.
  ///
  /// - Parameter areInIncreasingOrder: Called once with `(value, value)` on success; its
  ///   answer is ignored.
  /// - Returns: A `Result.Publisher` of the output, the failure, or the thrown error.
  @inlinable
  public func tryMax(
    by areInIncreasingOrder: (Output, Output) throws -> Bool
  ) -> Result<Output, any Error>.Publisher {
    Result<Output, any Error>.Publisher(result.callingOnce(areInIncreasingOrder))
  }

  /// Whether a success satisfies `predicate`, now; a failure passes through.
  ///
  /// ```swift
  /// let found: Result<Bool, TestError>.Publisher = Result<Int, TestError>.success(3).publisher.contains { $0 > 2 }
  /// ```
  ///
  /// - Parameter predicate: A closure that tests the output.
  /// - Returns: A `Result.Publisher` of the answer, or of the failure.
  @inlinable
  public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(result.map(predicate))
  }

  /// Whether a success satisfies the throwing `predicate`, now; a failure passes through.
  ///
  /// - Parameter predicate: A throwing closure that tests the output.
  /// - Returns: A `Result.Publisher` of the answer, of the thrown error, or of the
  ///   failure.
  @inlinable
  public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
    Result<Bool, any Error>.Publisher(Result<Bool, any Error> { try predicate(result.get()) })
  }

  /// Whether a success satisfies `predicate`, now; a failure passes through.
  ///
  /// ```swift
  /// let even: Result<Bool, TestError>.Publisher =
  ///   Result<Int, TestError>.success(4).publisher.allSatisfy { $0.isMultiple(of: 2) }
  /// ```
  ///
  /// - Parameter predicate: A closure that tests the output.
  /// - Returns: A `Result.Publisher` of the answer, or of the failure.
  @inlinable
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(result.map(predicate))
  }

  /// Whether a success satisfies the throwing `predicate`, now; a failure passes through.
  ///
  /// - Parameter predicate: A throwing closure that tests the output.
  /// - Returns: A `Result.Publisher` of the answer, of the thrown error, or of the
  ///   failure.
  @inlinable
  public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
    Result<Bool, any Error>.Publisher(Result<Bool, any Error> { try predicate(result.get()) })
  }

  /// Applies `nextPartialResult` to `initialResult` and a success, now; a failure passes
  /// through.
  ///
  /// ```swift
  /// let sum: Result<Int, TestError>.Publisher = Result<Int, TestError>.success(2).publisher.reduce(40, +)
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value passed to the closure with the output.
  ///   - nextPartialResult: A closure that combines the accumulated value and the output.
  /// - Returns: A `Result.Publisher` of the accumulated value, or of the failure.
  @inlinable
  public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
  }

  /// Applies the throwing `nextPartialResult` to `initialResult` and a success, now; a
  /// failure passes through.
  ///
  /// - Parameters:
  ///   - initialResult: The value passed to the closure with the output.
  ///   - nextPartialResult: A throwing closure that combines the accumulated value and the
  ///     output.
  /// - Returns: A `Result.Publisher` of the accumulated value, of the thrown error, or of
  ///   the failure.
  @inlinable
  public func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
  ) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(Result<T, any Error> { try nextPartialResult(initialResult, result.get()) })
  }

  /// The first element: this publisher.
  ///
  /// - Returns: This publisher.
  @inlinable
  public func first() -> Result<Output, Failure>.Publisher {
    self
  }

  /// The last element: this publisher.
  ///
  /// - Returns: This publisher.
  @inlinable
  public func last() -> Result<Output, Failure>.Publisher {
    self
  }

  /// Ignores the output: the result finishes without publishing anything.
  ///
  /// As Apple's, the answer is an `Empty`, which always finishes: a failure of this
  /// result is not replayed. Use ``Publisher/ignoreOutput()`` on an erased or wrapped
  /// publisher to keep it.
  ///
  /// ```swift
  /// let done: Empty<Int, TestError> = Result<Int, TestError>.success(1).publisher.ignoreOutput()
  /// ```
  ///
  /// - Returns: An `Empty` publisher that completes immediately.
  @inlinable
  public func ignoreOutput() -> Empty<Output, Failure> {
    Empty()
  }

  /// A `Result.Publisher` is never empty, so this is the same publisher.
  ///
  /// - Parameter output: Unused.
  /// - Returns: This publisher.
  @inlinable
  public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher {
    self
  }

  /// Publishes `output` in place of a failure, now.
  ///
  /// ```swift
  /// let safe: Result<Int, Never>.Publisher = Result<Int, TestError>.failure(TestError("x")).publisher
  ///   .replaceError(with: 0)   // publishes 0
  /// ```
  ///
  /// - Parameter output: The element to publish in place of a failure.
  /// - Returns: A `Result.Publisher` that never fails: of the success, or of `output`.
  @inlinable
  public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
    switch result {
    case .success(let value): Result<Output, Never>.Publisher(value)
    case .failure: Result<Output, Never>.Publisher(output)
    }
  }

  /// Retrying a fixed result gives the same result: this publisher.
  ///
  /// - Parameter times: Unused.
  /// - Returns: This publisher.
  @inlinable
  public func retry(_ times: Int) -> Result<Output, Failure>.Publisher {
    self
  }
}

extension Result.Publisher where Output: Comparable {
  /// The minimum of one element: this publisher.
  ///
  /// - Returns: This publisher.
  @inlinable
  public func min() -> Result<Output, Failure>.Publisher {
    self
  }

  /// The maximum of one element: this publisher.
  ///
  /// - Returns: This publisher.
  @inlinable
  public func max() -> Result<Output, Failure>.Publisher {
    self
  }
}

extension Result.Publisher where Output: Equatable {
  /// Whether a success equals `output`, now; a failure passes through.
  ///
  /// ```swift
  /// let found: Result<Bool, TestError>.Publisher = Result<Int, TestError>.success(3).publisher.contains(3)
  /// ```
  ///
  /// - Parameter output: The element to compare with.
  /// - Returns: A `Result.Publisher` of the answer, or of the failure.
  @inlinable
  public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(result.map { $0 == output })
  }
}
