extension Publishers {
  /// A publisher that only publishes the last element of a stream, after the stream finishes.
  ///
  /// If upstream finishes without publishing anything, this publisher just finishes; if it fails, the
  /// failure is forwarded and nothing is published.
  ///
  /// ```swift
  /// let cancellable = (-10...10).publisher
  ///   .last()
  ///   .sink { print($0) }   // 10
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream; keeps only the latest element, and publishes it once
  /// upstream finished and downstream has demand.
  @_eagerMove
  public struct Last<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that publishes the last element of `upstream` once it finishes.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        ReducingSubscription(downstream: subscriber, logic: LastLogic<Upstream.Output, Failure>()))
    }
  }
}

extension Publishers.Last: Equatable where Upstream: Equatable {}

extension Publisher {
  /// Publishes the last element of a stream, after the stream finishes.
  ///
  /// Use `last()` when you need to emit only the last element from an upstream publisher.
  ///
  /// ```swift
  /// let numbers = (-10...10)
  /// cancellable = numbers.publisher
  ///   .last()
  ///   .sink { print("\($0)") }
  /// // Prints: "10"
  /// ```
  ///
  /// - Returns: A publisher that only publishes the last element of a stream.
  @inlinable
  public consuming func last() -> Publishers.Last<Self> {
    Publishers.Last(upstream: self)
  }
}

/// `last()`: keeps the latest value; publishes it when upstream finishes.
@usableFromInline
internal struct LastLogic<Input, Failure: Error>: ReducingLogic {
  @usableFromInline internal var latest: Input?

  @inlinable
  internal init() {}

  @inlinable
  internal static var name: String { "Last" }

  @inlinable
  internal mutating func reduce(_ input: Input) -> ReducingStep<Input, Failure> {
    latest = input
    return .proceed
  }

  @inlinable
  internal mutating func finish() -> Input? {
    defer { latest = nil }
    return latest
  }
}
