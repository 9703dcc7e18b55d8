extension Publishers {
  /// A publisher that ignores all upstream elements, but passes along the upstream publisher's
  /// completion state (finished or failed).
  ///
  /// Use it when only the end of a stream matters.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher
  ///   .ignoreOutput()
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })   // finished
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream; the completion is passed on at once, whatever the
  /// downstream demand.
  public struct IgnoreOutput<Upstream: Publisher>: Publisher {
    public typealias Output = Never
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that ignores all elements of `upstream` and passes on its completion.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        ReducingSubscription(downstream: subscriber, logic: IgnoreOutputLogic<Upstream.Output, Failure>()))
    }
  }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

extension Publisher {
  /// Ignores all upstream elements, but passes along the upstream publisher's completion state
  /// (finished or failed).
  ///
  /// Use the `ignoreOutput()` operator to determine if a publisher is able to complete
  /// successfully or would fail.
  ///
  /// ```swift
  /// struct NoZeroValuesAllowedError: Error {}
  /// let numbers = [1, 2, 3, 4, 5, 0, 6, 7, 8, 9]
  /// cancellable = numbers.publisher
  ///   .tryFilter({ anInt in
  ///     guard anInt != 0 else { throw NoZeroValuesAllowedError() }
  ///     return anInt < 20
  ///   })
  ///   .ignoreOutput()
  ///   .sink(receiveCompletion: { print("completion: \($0)") },
  ///         receiveValue: { print("value \($0)") })
  /// // Prints: "completion: failure(NoZeroValuesAllowedError())"
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream.
  ///
  /// - Returns: A publisher that ignores all upstream elements.
  @inlinable
  public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
    Publishers.IgnoreOutput(upstream: self)
  }
}

/// `ignoreOutput()`: drops every value; only the completion goes on.
@usableFromInline
internal struct IgnoreOutputLogic<Input, Failure: Error>: ReducingLogic {
  @inlinable
  internal init() {}

  @inlinable
  internal static var name: String { "IgnoreOutput" }

  @inlinable
  internal mutating func reduce(_ input: Input) -> ReducingStep<Never, Failure> { .proceed }

  @inlinable
  internal mutating func finish() -> Never? { nil }
}
