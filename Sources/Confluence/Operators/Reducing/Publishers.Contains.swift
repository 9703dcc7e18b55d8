extension Publishers {
  /// A publisher that emits a Boolean value when it receives a specified element from its upstream
  /// publisher.
  ///
  /// When an element equal to `output` arrives, the publisher cancels upstream, publishes `true` and
  /// finishes. If upstream finishes first, it publishes `false`.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher
  ///   .contains(2)
  ///   .sink { print($0) }   // true
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream, cancels it at the first match, and publishes the answer
  /// once downstream has demand.
  @_eagerMove
  public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
    public typealias Output = Bool
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The element to scan for in the upstream publisher.
    public let output: Upstream.Output

    /// Creates a publisher that emits a Boolean value when it receives `output` from `upstream`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - output: The element to scan for in the upstream publisher.
    @inlinable
    public init(upstream: Upstream, output: Upstream.Output) {
      self.upstream = upstream
      self.output = output
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        ReducingSubscription(
          downstream: subscriber, logic: ContainsLogic<Upstream.Output, Failure>(output: output)))
    }
  }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}

extension Publisher where Output: Equatable {
  /// Publishes a Boolean value upon receiving an element equal to the argument.
  ///
  /// Use `contains(_:)` to find the first element in an upstream that's equal to the supplied
  /// argument. The contains publisher consumes all received elements until the upstream
  /// publisher produces a matching element. Upon finding the first match, it emits `true` and
  /// finishes normally. If the upstream finishes normally without producing a matching
  /// element, this publisher emits `false` and finishes.
  ///
  /// ```swift
  /// let numbers = [-1, 5, 10, 5]
  /// numbers.publisher
  ///   .contains(5)
  ///   .sink { print("\($0)") }
  /// // Prints: "true"
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream and cancels it at the first match.
  ///
  /// - Parameter output: An element to match against.
  /// - Returns: A publisher that emits the Boolean value `true` when the upstream publisher
  ///   emits a matching value.
  @inlinable
  public consuming func contains(_ output: Output) -> Publishers.Contains<Self> {
    Publishers.Contains(upstream: self, output: output)
  }
}

/// `contains(_:)`: the first equal value ends the stream with `true`.
@usableFromInline
internal struct ContainsLogic<Input: Equatable, Failure: Error>: ReducingLogic {
  @usableFromInline internal let output: Input

  @inlinable
  internal init(output: Input) {
    self.output = output
  }

  @inlinable
  internal static var name: String { "Contains" }

  @inlinable
  internal var initial: Bool? { false }

  @inlinable
  internal mutating func reduce(_ input: Input) -> ReducingStep<Bool, Failure> {
    input == output ? .finish(true) : .proceed
  }

  @inlinable
  internal mutating func finish() -> Bool? { false }
}
