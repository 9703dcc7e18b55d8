extension Publishers {
  /// A publisher that only publishes the last element of a stream that satisfies a predicate closure,
  /// once the stream finishes.
  ///
  /// If no element satisfied the predicate, the publisher just finishes.
  ///
  /// ```swift
  /// let cancellable = ["a", "dddd", "eeeee", "bb"].publisher
  ///   .last { $0.count > 3 }
  ///   .sink { print($0) }   // eeeee
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream; keeps only the latest match, and publishes it once
  /// upstream finished and downstream has demand.
  @_eagerMove
  public struct LastWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that determines whether to publish an element.
    public let predicate: (Publishers.LastWhere<Upstream>.Output) -> Bool

    /// Creates a publisher that publishes the last element of `upstream` that satisfies `predicate`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - predicate: The closure that determines whether to publish an element.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Publishers.LastWhere<Upstream>.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        ReducingSubscription(
          downstream: subscriber, logic: LastWhereLogic<Upstream.Output, Failure>(predicate: predicate)))
    }
  }
}

extension Publisher {
  /// Publishes the last element of a stream that satisfies a predicate closure, after upstream
  /// finishes.
  ///
  /// Use `last(where:)` when you need to republish only the last element of a stream that
  /// satisfies a closure you specify.
  ///
  /// ```swift
  /// let numbers = (-10...10)
  /// cancellable = numbers.publisher
  ///   .last { $0 < 6 }
  ///   .sink { print("\($0)") }
  /// // Prints: "5"
  /// ```
  ///
  /// - Parameter predicate: A closure that takes an element as its parameter and returns a
  ///   Boolean value that indicates whether to publish the element.
  /// - Returns: A publisher that only publishes the last element satisfying the given
  ///   predicate.
  @inlinable
  public consuming func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
    Publishers.LastWhere(upstream: self, predicate: predicate)
  }
}

/// `last(where:)`: keeps the latest match; publishes it when upstream finishes.
@usableFromInline
internal struct LastWhereLogic<Input, Failure: Error>: ReducingLogic {
  @usableFromInline internal let predicate: (Input) -> Bool
  @usableFromInline internal var latest: Input?

  @inlinable
  internal init(predicate: @escaping (Input) -> Bool) {
    self.predicate = predicate
  }

  @inlinable
  internal static var name: String { "LastWhere" }

  @inlinable
  internal mutating func reduce(_ input: Input) -> ReducingStep<Input, Failure> {
    if predicate(input) {
      latest = input
    }
    return .proceed
  }

  @inlinable
  internal mutating func finish() -> Input? {
    defer { latest = nil }
    return latest
  }
}
