// Apple's specialised operators on `Result.Publisher` for the operators that exist so
// far: they run the closure at once and return another `Result.Publisher`. Apple declares
// no `filter` here (a filtered-out success could not be expressed as a `Result`), so the
// generic `Publisher.filter` applies. Other operators add their overloads beside their
// own files.

extension Result.Publisher {
  /// Transforms a success with a provided closure, now, and returns a publisher of the
  /// transformed result; a failure passes through unchanged.
  ///
  /// ```swift
  /// let doubled: Result<Int, TestError>.Publisher = Result<Int, TestError>.success(2).publisher.map { $0 * 2 }
  /// let cancellable = doubled.sink(receiveCompletion: { _ in }, receiveValue: { print($0) })   // prints 4
  /// ```
  ///
  /// Back-pressure: as `Result.Publisher`.
  ///
  /// - Parameter transform: A closure that takes the success value and returns a new
  ///   element. It is not called for a failure.
  /// - Returns: A `Result.Publisher` of the transformed result.
  @inlinable
  public func map<T>(_ transform: (Output) -> T) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(result.map(transform))
  }
}
