extension Publishers {
  /// A publisher that replaces any error in the stream with a provided element.
  ///
  /// Values and `.finished` pass through. If upstream fails, the publisher publishes
  /// `output` and finishes instead, so its `Failure` type is `Never`.
  ///
  /// ```swift
  /// let cancellable = failingPublisher
  ///   .replaceError(with: "placeholder")
  ///   .assign(to: \.text, on: label)
  /// ```
  ///
  /// Back-pressure: passes demand to upstream; after a failure, publishes `output` as soon
  /// as downstream has demand outstanding (or on its next request).
  @_eagerMove
  public struct ReplaceError<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Never

    /// The element with which to replace errors from the upstream publisher.
    public let output: Upstream.Output

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that replaces any error in the stream with a provided element.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - output: The element with which to replace errors from the upstream publisher.
    @inlinable
    public init(upstream: Upstream, output: Output) {
      self.upstream = upstream
      self.output = output
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        ReducingFallbackSubscription<Upstream.Failure, S>(
          name: "ReplaceError", downstream: subscriber, fallback: output, requestsUnlimitedOnSubscription: false,
          convertFailure: nil))
    }
  }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publisher {
  /// Replaces any errors in the stream with the provided element.
  ///
  /// If the upstream publisher fails with an error, this publisher emits the provided
  /// element, then finishes normally.
  ///
  /// ```swift
  /// struct MyError: Error {}
  /// let fail = Fail<String, MyError>(error: MyError())
  /// cancellable = fail
  ///   .replaceError(with: "(replacement element)")
  ///   .sink(
  ///     receiveCompletion: { print ("\($0)") },
  ///     receiveValue: { print ("\($0)", terminator: " ") }
  ///   )
  /// // Prints: "(replacement element) finished".
  /// ```
  ///
  /// Back-pressure: the replacement is published only against downstream demand.
  ///
  /// - Parameter output: An element to emit when the upstream publisher fails.
  /// - Returns: A publisher that replaces an error from the upstream publisher with the
  ///   provided output element.
  @inlinable
  public consuming func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
    Publishers.ReplaceError(upstream: self, output: output)
  }
}
