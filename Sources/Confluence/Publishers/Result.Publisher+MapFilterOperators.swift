// Apple's specialised mapping and filtering operators on `Result.Publisher`: they apply the
// closure to the success value (or the failure), at once, and return another
// `Result.Publisher`.

extension Result.Publisher {
  /// Transforms the success value with an error-throwing closure, now; a failure passes
  /// through.
  ///
  /// ```swift
  /// let parsed: Result<Int, any Error>.Publisher = Result<String, Never>.Publisher("4").tryMap { try parse($0) }
  /// ```
  ///
  /// - Parameter transform: A closure that takes the success value and returns a new
  ///   value, or throws.
  /// - Returns: A `Result.Publisher` of the new value, the thrown error, or the failure.
  @inlinable
  public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
    switch result {
    case .success(let value):
      return Result<T, any Error>.Publisher(Swift.Result<T, any Error> { try transform(value) })
    case .failure(let error):
      return Result<T, any Error>.Publisher(.failure(error))
    }
  }

  /// Converts the failure, if any, with a closure, now.
  ///
  /// ```swift
  /// let wrapped: Result<Int, AppError>.Publisher = failing.mapError { AppError.wrapped($0) }
  /// ```
  ///
  /// - Parameter transform: A closure that converts the failure into a new error.
  /// - Returns: A `Result.Publisher` of the success value or the converted failure.
  @inlinable
  public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
    Result<Output, E>.Publisher(result.mapError(transform))
  }

  /// Combines the initial result with the success value, now; a failure passes through.
  ///
  /// ```swift
  /// let total: Result<Int, Never>.Publisher = Result<Int, Never>.Publisher(5).scan(10) { $0 + $1 }   // 15
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value to combine the success value with.
  ///   - nextPartialResult: A closure that combines the initial result and the value.
  /// - Returns: A `Result.Publisher` of the combined value, or the failure.
  @inlinable
  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
  }

  /// Combines the initial result with the success value using an error-throwing closure,
  /// now; a failure passes through.
  ///
  /// ```swift
  /// let total: Result<Int, any Error>.Publisher = Result<Int, Never>.Publisher(5).tryScan(10) { try add($0, $1) }
  /// ```
  ///
  /// - Parameters:
  ///   - initialResult: The value to combine the success value with.
  ///   - nextPartialResult: An error-throwing closure that combines the initial result
  ///     and the value.
  /// - Returns: A `Result.Publisher` of the combined value, the thrown error, or the
  ///   failure.
  @inlinable
  public func tryScan<T>(
    _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
  ) -> Result<T, any Error>.Publisher {
    tryMap { try nextPartialResult(initialResult, $0) }
  }

  /// Returns this publisher: a single value has no duplicates.
  ///
  /// ```swift
  /// let same = Result<Int, Never>.Publisher(1).removeDuplicates { $0 == $1 }
  /// ```
  ///
  /// - Parameter predicate: Never called.
  /// - Returns: This publisher.
  @inlinable
  public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
    self
  }

  /// Presents the result as a publisher that can fail. A single value has no duplicates,
  /// but, as in Apple's Combine, on success `predicate` is called once, with the value as
  /// both arguments, so that an error it throws becomes the failure.
  ///
  /// ```swift
  /// let same: Result<Int, any Error>.Publisher = Result<Int, Never>.Publisher(1).tryRemoveDuplicates { try same($0, $1) }
  /// ```
  ///
  /// - Parameter predicate: Called once with `(value, value)` on success; its answer is
  ///   ignored.
  /// - Returns: A `Result.Publisher` of the success value, the failure, or the error
  ///   `predicate` threw.
  @inlinable
  public func tryRemoveDuplicates(
    by predicate: (Output, Output) throws -> Bool
  ) -> Result<Output, any Error>.Publisher {
    Result<Output, any Error>.Publisher(result.callingOnce(predicate))
  }

}

extension Result.Publisher where Output: Equatable {
  /// Returns this publisher: a single value has no duplicates.
  ///
  /// ```swift
  /// let same = Result<Int, Never>.Publisher(1).removeDuplicates()
  /// ```
  ///
  /// - Returns: This publisher.
  @inlinable
  public func removeDuplicates() -> Result<Output, Failure>.Publisher {
    self
  }
}

extension Result.Publisher where Failure == Never {
  /// Presents the success value as a publisher that appears able to fail with `E`.
  ///
  /// ```swift
  /// let typed: Result<Int, URLError>.Publisher = Result<Int, Never>.Publisher(1).setFailureType(to: URLError.self)
  /// ```
  ///
  /// - Parameter failureType: The `Failure` type presented by the result.
  /// - Returns: A `Result.Publisher` of the success value.
  @inlinable
  public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
    switch result {
    case .success(let value):
      return Result<Output, E>.Publisher(value)
    }
  }
}

extension Result {
  /// On success, calls `predicate` once with the value as both arguments (ignoring its
  /// answer) and fails with what it throws; a failure passes through, widened to
  /// `any Error`. Apple's rule for the comparing `try` operators of one value.
  @inlinable
  internal func callingOnce(_ predicate: (Success, Success) throws -> Bool) -> Result<Success, any Error> {
    switch self {
    case .success(let value):
      return Result<Success, any Error> {
        _ = try predicate(value, value)
        return value
      }
    case .failure(let error):
      return .failure(error)
    }
  }
}
