extension Publishers {
  /// A publisher that replaces an empty stream with a provided element.
  ///
  /// Values, `.finished` after at least one value, and failures pass through. If upstream
  /// finishes without publishing anything, this publisher publishes `output`, then
  /// finishes.
  ///
  /// ```swift
  /// let cancellable = [Double]().publisher
  ///   .replaceEmpty(with: Double.nan)
  ///   .sink { print($0) }   // nan
  /// ```
  ///
  /// Back-pressure: as Apple's, requests unlimited from upstream as soon as it subscribes,
  /// and passes downstream's requests on too, so values go through as upstream sends them.
  /// After an empty finish, publishes `output` as soon as downstream has demand outstanding
  /// (or on its next request).
  @_eagerMove
  public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The element to deliver when the upstream publisher finishes without delivering any
    /// elements.
    public let output: Upstream.Output

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that replaces an empty stream with a provided element.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - output: The element to deliver when the upstream publisher finishes without
    ///     delivering any elements.
    @inlinable
    public init(upstream: Upstream, output: Output) {
      self.upstream = upstream
      self.output = output
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        ReducingFallbackSubscription<Upstream.Failure, S>(
          name: "ReplaceEmpty", downstream: subscriber, fallback: output, requestsUnlimitedOnSubscription: true,
          convertFailure: { $0 }))
    }
  }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publisher {
  /// Replaces an empty stream with the provided element.
  ///
  /// Use `replaceEmpty(with:)` to provide a replacement element if the upstream publisher
  /// finishes without producing any elements. A failure is not replaced.
  ///
  /// ```swift
  /// let numbers: [Double] = []
  /// cancellable = numbers.publisher
  ///   .replaceEmpty(with: Double.nan)
  ///   .sink { print("\($0)", terminator: " ") }
  /// // Prints "(nan)".
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream; the replacement is published only
  /// against downstream demand.
  ///
  /// - Parameter output: An element to emit when the upstream publisher finishes without
  ///   emitting any elements.
  /// - Returns: A publisher that replaces an empty stream with the provided output element.
  @inlinable
  public consuming func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
    Publishers.ReplaceEmpty(upstream: self, output: output)
  }
}
