extension Publishers {
  /// A publisher that ignores elements from the upstream publisher until it receives an
  /// element from second publisher.
  ///
  /// Once the second publisher emits, every later upstream element is republished. A
  /// failure of either publisher fails this one; the second publisher finishing without
  /// output changes nothing.
  ///
  /// ```swift
  /// let taps = PassthroughSubject<Int, Never>()
  /// let start = PassthroughSubject<Void, Never>()
  /// cancellable = taps.drop(untilOutputFrom: start).sink { print($0) }
  /// taps.send(1)       // ignored
  /// start.send()
  /// taps.send(2)       // prints 2
  /// ```
  ///
  /// Back-pressure: passes downstream demand upstream and asks for one more element in
  /// place of each one it drops; asks the second publisher for a single element.
  public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
  where Upstream.Failure == Other.Failure {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// A publisher to monitor for its first emitted element.
    public let other: Other

    /// Creates a publisher that ignores elements from the upstream publisher until it
    /// receives an element from another publisher.
    @inlinable
    public init(upstream: Upstream, other: Other) {
      self.upstream = upstream
      self.other = other
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      DropUntilOutputSubscription<Upstream, Other, S>(downstream: subscriber).start(upstream: upstream, other: other)
    }
  }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publisher {
  /// Ignores elements from the upstream publisher until it receives an element from a
  /// second publisher.
  ///
  /// See ``Publishers/DropUntilOutput`` for an example.
  ///
  /// - Parameter publisher: A publisher to monitor for its first emitted element.
  /// - Returns: A publisher that drops elements from the upstream publisher until the
  ///   `other` publisher produces a value.
  @inlinable
  public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
  where Failure == P.Failure {
    Publishers.DropUntilOutput(upstream: self, other: publisher)
  }
}
