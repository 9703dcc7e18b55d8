extension Publishers {
  /// A publisher that flattens nested publishers, republishing only the elements of the
  /// most recent one.
  ///
  /// Given a publisher of publishers, `SwitchToLatest` subscribes to each inner publisher
  /// as it arrives and cancels the previous one, so only the latest inner publisher's
  /// elements reach downstream. It finishes once the upstream has finished and the current
  /// inner publisher (if any) has finished, and fails as soon as either fails.
  ///
  /// ```swift
  /// let cancellable = searchText
  ///   .map { query in api.search(query) }   // a publisher of publishers
  ///   .switchToLatest()                     // only the latest search's results
  ///   .sink { print($0) }
  /// ```
  ///
  /// Back-pressure: requests `.unlimited` from upstream (each element is a publisher, and
  /// only the latest matters); downstream demand is passed to the current inner publisher,
  /// and what it has not used is passed on to the next one. As Apple's, what downstream
  /// returns for a value goes back through the inner subscriber's `receive(_:)`, and an
  /// inner publisher that sends a value it was not asked for, or completes before sending
  /// its subscription, traps.
  @_eagerMove
  public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
  where P == Upstream.Output, P.Failure == Upstream.Failure {
    public typealias Output = P.Output
    public typealias Failure = P.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that “flattens” nested publishers.
    ///
    /// - Parameter upstream: The publisher from which this publisher receives elements.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      _receiveRelay(subscriber)
    }

    /// Makes the subscription, which `relay` is moved into, and subscribes it (see
    /// `Publisher._receiveRelay(_:)`): `map { … }.switchToLatest()` nested in another hands
    /// each level's `map` relay over this way.
    ///
    /// - Parameter relay: A subscriber the caller made for this call and keeps no copy of.
    @inlinable
    @inline(__always)
    public func _receiveRelay<S: Subscriber>(_ relay: consuming S) where S.Input == Output, S.Failure == Failure {
      let subscription = SwitchToLatestSubscription<P, S>(downstream: relay)
      // Handed downstream as the existential the reference just made is moved into, then
      // taken back from it and moved upstream (see `reclaimed(_:_:)`): a `map` there moves
      // it into its relay, which the next `switchToLatest` up keeps moved in turn.
      let reference = Unmanaged.passUnretained(subscription)
      let erased: Subscription = consume subscription
      reference._withUnsafeGuaranteedRef { $0.subscribeDownstreamFirst(erased) }
      // As its entry class, so that the upstream sees a type that does not grow with `S`.
      upstream._subscribeUpstream(reclaimed(consume erased, reference) as SwitchToLatestEntry<P>)
    }
  }
}

extension Publisher where Output: Publisher, Output.Failure == Failure {
  /// Republishes elements sent by the most recently received publisher.
  ///
  /// This operator works with an upstream publisher of publishers, flattening the stream of
  /// elements to appear as if they were coming from a single stream of elements. It
  /// switches the inner publisher as new ones arrive but keeps the outer publisher
  /// constant for downstream subscribers.
  ///
  /// ```swift
  /// let subject = PassthroughSubject<Int, Never>()
  /// cancellable = subject
  ///   .map { index in (index * 10..<index * 10 + 3).publisher }
  ///   .switchToLatest()
  ///   .sink { print($0) }
  /// ```
  ///
  /// Back-pressure: see ``Publishers/SwitchToLatest``.
  ///
  /// - Returns: A publisher that emits elements from the most recent publisher it received.
  @inlinable
  public consuming func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
    Publishers.SwitchToLatest(upstream: self)
  }
}
