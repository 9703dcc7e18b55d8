extension Publishers {
  /// A publisher that publishes the number of elements received from the upstream publisher.
  ///
  /// The count is published when upstream finishes; if upstream fails, the failure is forwarded and no
  /// count is published.
  ///
  /// ```swift
  /// let cancellable = ["a", "b", "c"].publisher
  ///   .count()
  ///   .sink { print($0) }   // 3
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream; publishes the count once upstream finished and
  /// downstream has demand.
  @_eagerMove
  public struct Count<Upstream: Publisher>: Publisher {
    public typealias Output = Int
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that publishes the number of elements received from `upstream`.
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
        ReducingSubscription(downstream: subscriber, logic: CountLogic<Upstream.Output, Failure>()))
    }
  }
}

extension Publishers.Count: Equatable where Upstream: Equatable {}

extension Publisher {
  /// Publishes the number of elements received from the upstream publisher.
  ///
  /// Use `count()` to determine the number of elements received from the upstream publisher
  /// before it completes.
  ///
  /// ```swift
  /// let numbers = (0...10)
  /// cancellable = numbers.publisher
  ///   .count()
  ///   .sink { print("\($0)") }
  /// // Prints: "11"
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream.
  ///
  /// - Returns: A publisher that consumes all elements until the upstream publisher finishes,
  ///   then emits a single value with the total number of elements received.
  @inlinable
  public consuming func count() -> Publishers.Count<Self> {
    Publishers.Count(upstream: self)
  }
}

/// `count()`: counts values; publishes the count when upstream finishes.
@usableFromInline
internal struct CountLogic<Input, Failure: Error>: ReducingLogic {
  @usableFromInline internal var count = 0

  @inlinable
  internal init() {}

  @inlinable
  internal static var name: String { "Count" }

  @inlinable
  internal var initial: Int? { 0 }

  @inlinable
  internal mutating func reduce(_ input: Input) -> ReducingStep<Int, Failure> {
    count += 1
    return .proceed
  }

  @inlinable
  internal mutating func finish() -> Int? { count }
}
