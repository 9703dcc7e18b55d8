import Confluence

extension Publishers {
  /// A publisher built from a closure that pushes values into an ``Emitter`` — the bridge
  /// from callback-based code to a publisher.
  ///
  /// For each subscriber, `Create` hands the subscriber its subscription, then calls the
  /// closure once with an emitter. The closure starts whatever produces values, sends them
  /// (and at most one completion) through the emitter, and returns a `Cancellable` — the
  /// *cancellation hook* — that stops the production. The hook runs exactly once, when the
  /// subscription ends: right after downstream has received the completion, or when
  /// downstream cancels. If the subscription ended while the closure was still running (it
  /// sent a completion before returning, say), the hook runs as soon as the closure returns.
  ///
  /// ```swift
  /// let ticks = Publishers.Create<Int, Never> { subscriber in
  ///   subscriber.send(1)
  ///   subscriber.send(2)
  ///   subscriber.send(completion: .finished)
  ///   return AnyCancellable { print("cleaned up") }
  /// }
  /// let cancellable = ticks.sink { print($0) }   // 1, 2, cleaned up
  ///
  /// let locations = Publishers.Create<Location, Never> { subscriber in
  ///   let token = manager.startUpdates { subscriber.send($0) }
  ///   return AnyCancellable { manager.stopUpdates(token) }
  /// }
  /// ```
  ///
  /// Back-pressure: values sent without outstanding downstream demand are buffered, and
  /// delivered in order as demand arrives; a completion is delivered after the buffered
  /// values. **The buffer is unbounded**: a producer that outpaces its subscriber's demand
  /// grows it without limit. Follow with `buffer(size:prefetch:whenFull:)` to bound it
  /// (with a drop or failure policy), or produce only as fast as the subscriber consumes.
  ///
  /// Thread safety: the emitter's ``Emitter/send(_:)`` and ``Emitter/send(completion:)``
  /// may be called from any thread; downstream still receives one event at a time, in the
  /// order the sends took effect. Nothing is delivered after the completion or after cancel.
  ///
  /// Lifetimes: the emitter keeps the subscription alive, but once the subscription ends it
  /// lets go of downstream and of the buffer, and drops the hook after calling it, so an
  /// emitter retained by the producer (or captured by the hook) keeps nothing else alive.
  ///
  /// - Complexity: O(1) per value when downstream has demand (no buffering, no allocation);
  ///   amortised O(1) per buffered value.
  public struct Create<Output, Failure: Error>: Publisher {
    /// Starts producing values for one subscriber and returns the hook that stops it.
    public let producer: (Emitter) -> any Cancellable

    /// Creates a publisher that calls `producer` for each subscriber.
    ///
    /// - Parameter producer: Called once per subscriber, after that subscriber has received
    ///   its subscription, with an emitter to send values and a completion through. Returns
    ///   the cancellation hook, called exactly once when that subscription ends.
    @inlinable
    public init(_ producer: @escaping (Emitter) -> any Cancellable) {
      self.producer = producer
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      CreateSubscription<S>(downstream: subscriber).start(producer)
    }
  }
}
