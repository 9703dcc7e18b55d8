extension Publishers {
  /// A publisher that republishes items from another publisher only if each new item is in increasing
  /// order from the previously-published item.
  ///
  /// `Comparison` keeps the greatest element seen under `areInIncreasingOrder` and publishes it when
  /// upstream finishes; `max()` uses it as is and `min()` with the order reversed. Among equal
  /// elements, the first one received wins. An empty upstream just finishes.
  ///
  /// ```swift
  /// let cancellable = [3, 1, 4].publisher
  ///   .max()
  ///   .sink { print($0) }   // 4
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream; publishes the result once upstream finished and
  /// downstream has demand.
  @_eagerMove
  public struct Comparison<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that receives two elements and returns true if they are in increasing order.
    public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

    /// Creates a publisher that publishes the greatest element of `upstream` under `areInIncreasingOrder`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - areInIncreasingOrder: A closure that receives two elements and returns true if they are in increasing order.
    @inlinable
    public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.areInIncreasingOrder = areInIncreasingOrder
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        ReducingSubscription(
          downstream: subscriber,
          logic: ComparisonLogic<Upstream.Output, Failure>(areInIncreasingOrder: areInIncreasingOrder)))
    }
  }
}

extension Publisher where Output: Comparable {
  /// Publishes the minimum value received from the upstream publisher, after it finishes.
  ///
  /// Use `min()` to find the minimum value in a stream of elements from an upstream
  /// publisher.
  ///
  /// ```swift
  /// let numbers = [-1, 0, 10, 5]
  /// numbers.publisher
  ///   .min()
  ///   .sink { print("\($0)") }
  /// // Prints: "-1"
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream.
  ///
  /// - Returns: A publisher that publishes the minimum value received from the upstream
  ///   publisher, after the upstream publisher finishes.
  @inlinable
  public consuming func min() -> Publishers.Comparison<Self> {
    min(by: <)
  }
}

extension Publisher where Output: Comparable {
  /// Publishes the maximum value received from the upstream publisher, after it finishes.
  ///
  /// Use `max()` to determine the maximum value in the stream of elements from an upstream
  /// publisher.
  ///
  /// ```swift
  /// let numbers = [0, 10, 5]
  /// cancellable = numbers.publisher
  ///   .max()
  ///   .sink { print("\($0)") }
  /// // Prints: "10"
  /// ```
  ///
  /// - Returns: A publisher that publishes the maximum value received from the upstream
  ///   publisher, after the upstream publisher finishes.
  @inlinable
  public consuming func max() -> Publishers.Comparison<Self> {
    max(by: <)
  }
}

extension Publisher {
  /// Publishes the minimum value received from the upstream publisher, after it finishes.
  ///
  /// Use `min(by:)` to determine the minimum value in the stream of elements from an upstream
  /// publisher using a comparison operation you specify. This operator is useful when the
  /// value received from the upstream publisher isn't `Comparable`.
  ///
  /// ```swift
  /// enum Rank: Int { case ace = 1, two, three, four, five, six, seven, eight, nine, ten, jack, queen, king }
  /// let cards: [Rank] = [.five, .queen, .ace, .eight, .king]
  /// cancellable = cards.publisher
  ///   .min { $0.rawValue < $1.rawValue }
  ///   .sink { print("\($0)") }
  /// // Prints: "ace"
  /// ```
  ///
  /// - Parameter areInIncreasingOrder: A closure that receives two elements and returns `true`
  ///   if they're in increasing order.
  /// - Returns: A publisher that publishes the minimum value received from the upstream
  ///   publisher, after the upstream publisher finishes.
  @inlinable
  public consuming func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self>
  {
    Publishers.Comparison(upstream: self) { areInIncreasingOrder($1, $0) }
  }
}

extension Publisher {
  /// Publishes the maximum value received from the upstream publisher, using the provided
  /// ordering closure.
  ///
  /// Use `max(by:)` to determine the maximum value of elements received from the upstream
  /// publisher based on an ordering closure you specify.
  ///
  /// ```swift
  /// enum Rank: Int { case ace = 1, two, three, four, five, six, seven, eight, nine, ten, jack, queen, king }
  /// let cards: [Rank] = [.five, .queen, .ace, .eight, .jack]
  /// cancellable = cards.publisher
  ///   .max { $0.rawValue > $1.rawValue }
  ///   .sink { print("\($0)") }
  /// // Prints: "ace"
  /// ```
  ///
  /// - Parameter areInIncreasingOrder: A closure that receives two elements and returns `true`
  ///   if they're in increasing order.
  /// - Returns: A publisher that publishes the maximum value received from the upstream
  ///   publisher, after the upstream publisher finishes.
  @inlinable
  public consuming func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self>
  {
    Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
  }
}

/// `min`/`max`: keeps the greatest value under the order; publishes it when upstream finishes.
@usableFromInline
internal struct ComparisonLogic<Input, Failure: Error>: ReducingLogic {
  @usableFromInline internal let areInIncreasingOrder: (Input, Input) -> Bool
  @usableFromInline internal var best: Input?

  @inlinable
  internal init(areInIncreasingOrder: @escaping (Input, Input) -> Bool) {
    self.areInIncreasingOrder = areInIncreasingOrder
  }

  @inlinable
  internal static var name: String { "Comparison" }

  @inlinable
  internal mutating func reduce(_ input: Input) -> ReducingStep<Input, Failure> {
    if let current = best {
      if areInIncreasingOrder(current, input) {
        best = input
      }
    } else {
      best = input
    }
    return .proceed
  }

  @inlinable
  internal mutating func finish() -> Input? {
    defer { best = nil }
    return best
  }
}
