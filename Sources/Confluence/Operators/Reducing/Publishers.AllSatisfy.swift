extension Publishers {
  /// A publisher that publishes a single Boolean value that indicates whether all received elements
  /// pass a given predicate.
  ///
  /// At the first element that fails the predicate, the publisher cancels upstream, publishes `false`
  /// and finishes. If upstream finishes first, it publishes `true`.
  ///
  /// ```swift
  /// let cancellable = [2, 4, 6].publisher
  ///   .allSatisfy { $0.isMultiple(of: 2) }
  ///   .sink { print($0) }   // true
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream, cancels it at the first failing element, and publishes
  /// the answer once downstream has demand.
  @_eagerMove
  public struct AllSatisfy<Upstream: Publisher>: Publisher {
    public typealias Output = Bool
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that evaluates each received element.
    ///
    /// Return `true` to continue, or `false` to cancel the upstream and finish.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a publisher that publishes whether all elements of `upstream` pass `predicate`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - predicate: A closure that evaluates each received element.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        ReducingSubscription(
          downstream: subscriber, logic: AllSatisfyLogic<Upstream.Output, Failure>(predicate: predicate)))
    }
  }
}

extension Publisher {
  /// Publishes a single Boolean value that indicates whether all received elements pass a given
  /// predicate.
  ///
  /// Use the `allSatisfy(_:)` operator to determine if all elements in a stream satisfy a
  /// criteria you provide. When this publisher receives an element, it runs the predicate
  /// against the element. If the predicate returns `false`, the publisher produces a `false`
  /// value and finishes. If the upstream publisher finishes normally, this publisher produces
  /// a `true` value and finishes.
  ///
  /// ```swift
  /// let targetRange = (-1...100)
  /// let numbers = [-1, 0, 10, 5]
  /// numbers.publisher
  ///   .allSatisfy { targetRange.contains($0) }
  ///   .sink { print("\($0)") }
  /// // Prints: "true"
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream and cancels it at the first failing
  /// element.
  ///
  /// - Parameter predicate: A closure that evaluates each received element. Return `true` to
  ///   continue, or `false` to cancel the upstream and complete.
  /// - Returns: A publisher that publishes a Boolean value that indicates whether all received
  ///   elements pass a given predicate.
  @inlinable
  public consuming func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
    Publishers.AllSatisfy(upstream: self, predicate: predicate)
  }
}

/// `allSatisfy(_:)`: the first failing value ends the stream with `false`.
@usableFromInline
internal struct AllSatisfyLogic<Input, Failure: Error>: ReducingLogic {
  @usableFromInline internal let predicate: (Input) -> Bool

  @inlinable
  internal init(predicate: @escaping (Input) -> Bool) {
    self.predicate = predicate
  }

  @inlinable
  internal static var name: String { "AllSatisfy" }

  @inlinable
  internal var initial: Bool? { true }

  @inlinable
  internal mutating func reduce(_ input: Input) -> ReducingStep<Bool, Failure> {
    predicate(input) ? .proceed : .finish(false)
  }

  @inlinable
  internal mutating func finish() -> Bool? { true }
}
