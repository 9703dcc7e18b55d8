extension Publisher where Failure == Never {
  /// The elements produced by the publisher, as an asynchronous sequence.
  ///
  /// This property provides an ``AsyncPublisher``, which allows you to use the Swift
  /// `async`-`await` syntax to receive the publisher's elements.
  ///
  /// ```swift
  /// for await number in (0..<3).publisher.values {
  ///   print(number)   // 0, 1, 2
  /// }
  /// ```
  ///
  /// Back-pressure: requests one element per iteration.
  @inlinable
  public var values: AsyncPublisher<Self> {
    AsyncPublisher(self)
  }
}

extension Publisher {
  /// The elements produced by the publisher, as a throwing asynchronous sequence.
  ///
  /// This property provides an ``AsyncThrowingPublisher``, which allows you to use the
  /// Swift `async`-`await` syntax to receive the publisher's elements. The iteration throws
  /// if the publisher fails.
  ///
  /// ```swift
  /// do {
  ///   for try await value in Fail<Int, URLError>(error: URLError(.timedOut)).values {
  ///     print(value)
  ///   }
  /// } catch {
  ///   print(error)   // the URLError
  /// }
  /// ```
  ///
  /// Back-pressure: requests one element per iteration.
  @inlinable
  public var values: AsyncThrowingPublisher<Self> {
    AsyncThrowingPublisher(self)
  }
}
