extension Publishers {
  /// A publisher that publishes the first element of a stream, then finishes.
  ///
  /// As soon as the first element arrives, the publisher cancels upstream. If upstream finishes without
  /// publishing anything, this publisher just finishes.
  ///
  /// ```swift
  /// let cancellable = (-10...10).publisher
  ///   .first()
  ///   .sink { print($0) }   // -10
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream, cancels it after the first element, and publishes that
  /// element once downstream has demand.
  @_eagerMove
  public struct First<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that publishes the first element of `upstream`, then finishes.
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
        ReducingSubscription(downstream: subscriber, logic: FirstLogic<Upstream.Output, Failure>()))
    }
  }
}

extension Publishers.First: Equatable where Upstream: Equatable {}

extension Publisher {
  /// Publishes the first element of a stream, then finishes.
  ///
  /// Use `first()` to publish just the first element from an upstream publisher, then finish
  /// normally. The `first()` operator requests unlimited from upstream and cancels it as soon
  /// as the first element arrives. If it receives no elements before finishing, it finishes
  /// without publishing anything.
  ///
  /// ```swift
  /// let numbers = (-10...10)
  /// cancellable = numbers.publisher
  ///   .first()
  ///   .sink { print("\($0)") }
  /// // Prints: "-10"
  /// ```
  ///
  /// - Returns: A publisher that only publishes the first element of a stream.
  @inlinable
  public consuming func first() -> Publishers.First<Self> {
    Publishers.First(upstream: self)
  }
}

/// `first()`: the first value ends the stream.
@usableFromInline
internal struct FirstLogic<Input, Failure: Error>: ReducingLogic {
  /// Unused; it only gives the logic a size. The runtime places an empty stored property of
  /// a generic class at offset 0, on the object's header, so the thread sanitizer took
  /// every mutating call on an empty logic for a write racing with any thread reading the
  /// header (a `request(_:)` from downstream). One byte keeps the logic off the header.
  @usableFromInline
  internal var sizeKeeper: UInt8 = 0

  @inlinable
  internal init() {}

  @inlinable
  internal static var name: String { "First" }

  @inlinable
  internal mutating func reduce(_ input: Input) -> ReducingStep<Input, Failure> {
    .finish(input)
  }

  @inlinable
  internal mutating func finish() -> Input? { nil }
}
