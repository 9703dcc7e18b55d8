extension Publishers {
  /// A publisher that transforms elements from an upstream publisher into a new publisher.
  ///
  /// Each upstream element becomes an *inner* publisher; `FlatMap` subscribes to it and
  /// interleaves the values of all live inner publishers downstream. It finishes once the
  /// upstream and every inner publisher have finished, and fails as soon as any of them
  /// fails (cancelling the others).
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher
  ///   .flatMap { Just($0 * 10) }
  ///   .sink { print($0) }   // 10, 20, 30
  /// ```
  ///
  /// Back-pressure: requests `maxPublishers` elements from upstream at first, and one
  /// more each time an inner publisher finishes, so at most `maxPublishers` inner
  /// subscriptions are alive at once. Each inner publisher is asked for one value at a time
  /// (`.unlimited` once downstream's demand is unlimited, live inners included); values that arrive while
  /// downstream has no demand wait in a buffer of at most one value per inner publisher.
  /// As Apple's, a value delivered at once is answered with `.max(1)` from the inner
  /// subscriber's `receive(_:)`, downstream gets its subscription before upstream is
  /// subscribed to, and a failure cancels the other inner subscriptions, not the failing
  /// one; an inner failure releases upstream's subscription without cancelling it.
  @_eagerMove
  public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
  where NewPublisher.Failure == Upstream.Failure {
    public typealias Output = NewPublisher.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The maximum number of concurrent publisher subscriptions.
    public let maxPublishers: Subscribers.Demand

    /// A closure that takes an element as a parameter and returns a publisher that
    /// produces elements of that type.
    public let transform: (Upstream.Output) -> NewPublisher

    /// Creates a publisher that transforms elements from an upstream publisher into a new
    /// publisher.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - maxPublishers: The maximum number of concurrent publisher subscriptions.
    ///   - transform: A closure that takes an element as a parameter and returns a
    ///     publisher that produces elements of that type.
    @inlinable
    public init(
      upstream: Upstream, maxPublishers: Subscribers.Demand,
      transform: @escaping (Upstream.Output) -> NewPublisher
    ) {
      self.upstream = upstream
      self.maxPublishers = maxPublishers
      self.transform = transform
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      _receiveRelay(subscriber)
    }

    /// Makes the subscription, hands it downstream, keeps `relay` and subscribes the
    /// subscription upstream, moved (see `Publisher._receiveRelay(_:)`): each level of
    /// nested `flatMap`s hands its subscription to the level above this way, which keeps it
    /// without a retain.
    ///
    /// The subscription lets go of its downstream on cancel, so it is handed `relay` only
    /// once downstream's `receive(subscription:)` has returned: until then this call owns
    /// `relay`, which a cancel from inside `receive(subscription:)` cannot then free while
    /// it runs.
    ///
    /// Always inlined, as it was without being asked until `flatMap`'s subscription got an
    /// initialiser of its own: left a call, it cost `flatMap-chain-build-5` 8,899
    /// instructions a pipeline, inlined 8,830 (8,855 before that initialiser).
    ///
    /// - Parameter relay: A subscriber the caller made for this call and keeps no copy of.
    @inlinable
    @inline(__always)
    public func _receiveRelay<S: Subscriber>(_ relay: consuming S) where S.Input == Output, S.Failure == Failure {
      let subscription = FlatMapSubscription<NewPublisher, Upstream, S>(
        maxPublishers: maxPublishers, transform: transform)
      // Handed downstream as the existential the reference just made is moved into, then
      // taken back from it and moved upstream (see `reclaimed(_:_:)`).
      let reference = Unmanaged.passUnretained(subscription)
      let erased: Subscription = consume subscription
      reference._withUnsafeGuaranteedRef { $0.subscribeDownstreamFirst(relay, erased) }
      let taken = reclaimed(consume erased, reference)
      taken.keepDownstream(relay)
      // As its entry class, so that the upstream sees a type that does not grow with `S`.
      upstream._subscribeUpstream(consume taken as FlatMapEntry<Upstream.Output, NewPublisher.Output, Failure>)
    }
  }
}

extension Publisher {
  /// Transforms all elements from an upstream publisher into a new publisher up to a
  /// maximum number of publishers you specify.
  ///
  /// Use `flatMap` when each value should start some work that itself publishes — a
  /// network request per identifier, say — and you want all the results in one stream.
  ///
  /// ```swift
  /// let ids = [1, 2, 3].publisher.setFailureType(to: URLError.self)
  /// let stories = ids.flatMap(maxPublishers: .max(2)) { id in api.story(id: id) }
  /// ```
  ///
  /// Back-pressure: at most `maxPublishers` inner publishers are subscribed at once; see
  /// ``Publishers/FlatMap``.
  ///
  /// - Parameters:
  ///   - maxPublishers: Specifies the maximum number of concurrent publisher
  ///     subscriptions, or ``Subscribers/Demand/unlimited`` if unspecified.
  ///   - transform: A closure that takes an element as a parameter and returns a publisher
  ///     that produces elements of that type.
  /// - Returns: A publisher that transforms elements from an upstream publisher into a
  ///   publisher of that element’s type.
  @inlinable
  public consuming func flatMap<T, P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited,
    _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Self> where T == P.Output, Failure == P.Failure {
    Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
  }
}
