extension Publishers {
  /// A publisher that republishes elements from the upstream publisher until a second
  /// publisher emits an element.
  ///
  /// When the second publisher emits, this one cancels upstream, then the second publisher,
  /// and finishes. The second publisher's completion (finished or failed) is ignored.
  ///
  /// ```swift
  /// let ticks = PassthroughSubject<Int, Never>()
  /// let stop = PassthroughSubject<Void, Never>()
  /// cancellable = ticks.prefix(untilOutputFrom: stop).sink(
  ///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ticks.send(1)   // prints 1
  /// stop.send()     // prints finished
  /// ```
  ///
  /// Back-pressure: passes downstream demand upstream; asks the second publisher for a
  /// single element.
  public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// The second publisher, whose first output ends this one.
    public let other: Other

    /// Creates a publisher that republishes elements from the upstream publisher until
    /// `other` emits an element.
    @inlinable
    public init(upstream: Upstream, other: Other) {
      self.upstream = upstream
      self.other = other
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      PrefixUntilOutputSubscription<Upstream, Other, S>(downstream: subscriber).start(upstream: upstream, other: other)
    }
  }
}

extension Publishers.PrefixUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publisher {
  /// Republishes elements until another publisher emits an element.
  ///
  /// After the second publisher publishes an element, the publisher returned by this
  /// method finishes.
  ///
  /// - Parameter publisher: A second publisher.
  /// - Returns: A publisher that republishes elements until the second publisher
  ///   publishes an element.
  @inlinable
  public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
    Publishers.PrefixUntilOutput(upstream: self, other: publisher)
  }
}
