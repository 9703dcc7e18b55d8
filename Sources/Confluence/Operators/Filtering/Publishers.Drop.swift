extension Publishers {
  /// A publisher that omits a specified number of elements before republishing later
  /// elements.
  ///
  /// ```swift
  /// let cancellable = (1...5).publisher
  ///   .dropFirst(2)
  ///   .sink { print($0) }   // 3, 4, 5
  /// ```
  ///
  /// Back-pressure: passes downstream demand upstream and asks upstream for one more
  /// element (`.max(1)`) for each element it drops. Its subscription is shown as `Drop`
  /// by `print`.
  @_eagerMove
  public struct Drop<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The number of elements to drop.
    public let count: Int

    /// Creates a publisher that omits a specified number of elements before republishing
    /// later elements.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - count: The number of elements to drop; a negative count traps when a subscriber
    ///     attaches.
    @inlinable
    public init(upstream: Upstream, count: Int) {
      // As Apple's: a negative count traps when a subscriber attaches, not here.
      self.upstream = upstream
      self.count = count
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      confluencePrecondition(count >= 0, "dropFirst(_:): count must not be negative (got \(count))")
      // As Apple's: the downstream holds the subscription before upstream is subscribed.
      let inner = DropSubscription(downstream: subscriber, count: count)
      subscriber.receive(subscription: inner)
      upstream.subscribe(inner)
    }
  }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

extension Publisher {
  /// Omits the specified number of elements before republishing subsequent elements.
  ///
  /// Use `dropFirst(_:)` when you want to drop the first `n` elements from the upstream
  /// publisher, and republish the remaining elements.
  ///
  /// ```swift
  /// let numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
  /// cancellable = numbers.publisher
  ///   .dropFirst(5)
  ///   .sink { print("\($0)", terminator: " ") }
  /// // Prints: "6 7 8 9 10 "
  /// ```
  ///
  /// Back-pressure: requests one more element upstream for each element it drops.
  ///
  /// - Parameter count: The number of elements to omit. The default is `1`.
  /// - Returns: A publisher that doesn’t republish the first `count` elements.
  @inlinable
  public consuming func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
    Publishers.Drop(upstream: self, count: count)
  }
}
