extension Publisher {
  /// Replaces `nil` elements in the stream with the provided element.
  ///
  /// The `replaceNil(with:)` operator enables replacement of `nil` values in a stream
  /// with a substitute value. It is a ``Publishers/Map`` with `?? output`, so like `map`
  /// it hands the upstream subscription straight to the downstream subscriber.
  ///
  /// ```swift
  /// let numbers: [Double?] = [1.0, 2.0, nil, 3.0]
  /// numbers.publisher
  ///   .replaceNil(with: 0.0)
  ///   .sink { print("\($0)", terminator: " ") }
  /// // Prints: "1.0 2.0 0.0 3.0 "
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged.
  ///
  /// - Parameter output: The element to use when replacing `nil`.
  /// - Returns: A publisher that replaces `nil` elements from the upstream publisher with
  ///   the provided element.
  @inlinable
  public consuming func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Self.Output == T? {
    Publishers.Map(upstream: self) { $0 ?? output }
  }
}
