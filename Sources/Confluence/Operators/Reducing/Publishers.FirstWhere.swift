extension Publishers {
  /// A publisher that only publishes the first element of a stream to satisfy a predicate closure.
  ///
  /// Once an element satisfies the predicate, the publisher cancels upstream, publishes that element and
  /// finishes. If upstream finishes before any element matched, the publisher just finishes.
  ///
  /// ```swift
  /// let cancellable = ["a", "bb", "dddd"].publisher
  ///   .first { $0.count > 3 }
  ///   .sink { print($0) }   // dddd
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream, cancels it at the first match, and publishes the match
  /// once downstream has demand.
  @_eagerMove
  public struct FirstWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that determines whether to publish an element.
    public let predicate: (Publishers.FirstWhere<Upstream>.Output) -> Bool

    /// Creates a publisher that publishes the first element of `upstream` that satisfies `predicate`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - predicate: The closure that determines whether to publish an element.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Publishers.FirstWhere<Upstream>.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        ReducingSubscription(
          downstream: subscriber, logic: FirstWhereLogic<Upstream.Output, Failure>(predicate: predicate)))
    }
  }
}

extension Publisher {
  /// Publishes the first element of a stream to satisfy a predicate closure, then finishes
  /// normally.
  ///
  /// Use `first(where:)` to republish only the first element of a stream that satisfies a
  /// closure you specify. The publisher ignores all elements after the first element that
  /// satisfies the closure and finishes normally.
  ///
  /// ```swift
  /// let numbers = (-10...10)
  /// cancellable = numbers.publisher
  ///   .first { $0 > 0 }
  ///   .sink { print("\($0)") }
  /// // Prints: "1"
  /// ```
  ///
  /// - Parameter predicate: A closure that takes an element as a parameter and returns a
  ///   Boolean value that indicates whether to publish the element.
  /// - Returns: A publisher that only publishes the first element of a stream that satisfies
  ///   the predicate.
  @inlinable
  public consuming func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
    Publishers.FirstWhere(upstream: self, predicate: predicate)
  }
}

/// `first(where:)`: the first match ends the stream.
@usableFromInline
internal struct FirstWhereLogic<Input, Failure: Error>: ReducingLogic {
  @usableFromInline internal let predicate: (Input) -> Bool

  @inlinable
  internal init(predicate: @escaping (Input) -> Bool) {
    self.predicate = predicate
  }

  /// Apple's `first(where:)` subscription calls itself "TryFirst" (`tryFirst(where:)`'s is
  /// "TryFirstWhere"); `print` and the mirror show it.
  @inlinable
  internal static var name: String { "TryFirst" }

  @inlinable
  internal mutating func reduce(_ input: Input) -> ReducingStep<Input, Failure> {
    predicate(input) ? .finish(input) : .proceed
  }

  @inlinable
  internal mutating func finish() -> Input? { nil }
}
