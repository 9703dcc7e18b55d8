extension Publishers {
  /// A publisher that emits a Boolean value upon receiving an element that satisfies the predicate
  /// closure.
  ///
  /// At the first match the publisher cancels upstream, publishes `true` and finishes. If upstream
  /// finishes first, it publishes `false`.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher
  ///   .contains { $0 > 2 }
  ///   .sink { print($0) }   // true
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream, cancels it at the first match, and publishes the answer
  /// once downstream has demand.
  @_eagerMove
  public struct ContainsWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Bool
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that determines whether the publisher should consider an element as a match.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a publisher that emits a Boolean value upon receiving an element of `upstream` that
    /// satisfies `predicate`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - predicate: The closure that determines whether the publisher should consider an element as a match.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        ReducingSubscription(
          downstream: subscriber, logic: ContainsWhereLogic<Upstream.Output, Failure>(predicate: predicate)))
    }
  }
}

extension Publisher {
  /// Publishes a Boolean value upon receiving an element that satisfies the predicate closure.
  ///
  /// Use `contains(where:)` to find the first element in an upstream that satisfies the
  /// closure you provide. This operator consumes elements produced from the upstream publisher
  /// until the upstream publisher produces a matching element. It then emits `true` and
  /// finishes; if upstream finishes without a match, it emits `false`.
  ///
  /// ```swift
  /// struct IntPair { let x: Int; let y: Int }
  /// let intPairs = [IntPair(x: 1, y: 1), IntPair(x: 1, y: 2), IntPair(x: 3, y: 2)]
  /// cancellable = intPairs.publisher
  ///   .contains(where: { $0.x == 3 })
  ///   .sink { print("\($0)") }
  /// // Prints: "true"
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream and cancels it at the first match.
  ///
  /// - Parameter predicate: A closure that takes an element as its parameter and returns a
  ///   Boolean value that indicates whether the element satisfies the closure's comparison
  ///   logic.
  /// - Returns: A publisher that emits the Boolean value `true` when the upstream publisher
  ///   emits a matching value.
  @inlinable
  public consuming func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
    Publishers.ContainsWhere(upstream: self, predicate: predicate)
  }
}

/// `contains(where:)`: the first match ends the stream with `true`.
@usableFromInline
internal struct ContainsWhereLogic<Input, Failure: Error>: ReducingLogic {
  @usableFromInline internal let predicate: (Input) -> Bool

  @inlinable
  internal init(predicate: @escaping (Input) -> Bool) {
    self.predicate = predicate
  }

  @inlinable
  internal static var name: String { "ContainsWhere" }

  @inlinable
  internal var initial: Bool? { false }

  @inlinable
  internal mutating func reduce(_ input: Input) -> ReducingStep<Bool, Failure> {
    predicate(input) ? .finish(true) : .proceed
  }

  @inlinable
  internal mutating func finish() -> Bool? { false }
}
