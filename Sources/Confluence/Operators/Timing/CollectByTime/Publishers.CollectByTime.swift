extension Publishers {
  /// A publisher that buffers and periodically publishes its items.
  ///
  /// ```swift
  /// let cancellable = clicks
  ///   .collect(.byTime(RunLoop.main, .seconds(1)))
  ///   .sink { print("\($0.count) clicks this second") }
  /// ```
  ///
  /// A repeating timer on the strategy's scheduler starts at subscription; at every tick
  /// the values gathered since the last tick are published as one array (nothing is sent
  /// for an empty tick). With `.byTimeOrCount`, a full buffer of `count` values is
  /// published at once, on the thread that delivered the last value, without waiting for
  /// the tick. On `.finished` the values gathered so far are published, then the
  /// completion; on failure they are dropped and the failure is forwarded.
  ///
  /// Back-pressure: requests unlimited from upstream. A tick or full buffer that finds no
  /// downstream demand keeps the values and goes on buffering until demand arrives.
  ///
  /// - Complexity: Memory grows with the number of values gathered between publications.
  @_eagerMove
  public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = [Upstream.Output]
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// The strategy with which to collect and publish elements.
    public let strategy: Publishers.TimeGroupingStrategy<Context>

    /// `Scheduler` options to use for the strategy.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that buffers and periodically publishes its items.
    @inlinable
    public init(
      upstream: Upstream, strategy: Publishers.TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?
    ) {
      self.upstream = upstream
      self.strategy = strategy
      self.options = options
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        CollectByTimeSubscription<Upstream.Output, S, Context>(
          downstream: subscriber, strategy: strategy, options: options))
    }
  }
}

extension Publisher {
  /// Collects elements by a given time-grouping strategy, and emits a single array of the
  /// collection.
  ///
  /// Use `collect(_:options:)` to emit arrays of elements on a schedule specified by a
  /// `Scheduler` and `Stride` that you provide. At the end of each scheduled interval, the
  /// publisher sends an array that contains the items it collected. If the upstream
  /// publisher finishes before filling the buffer, the publisher sends an array that
  /// contains items it received. This may be fewer than the number of elements specified
  /// in the requested `Stride`. If the upstream publisher fails with an error, this
  /// publisher forwards the error to the downstream receiver instead of sending its output.
  ///
  /// ```swift
  /// let sub = Timer.publish(every: 1, on: .main, in: .default)
  ///   .autoconnect()
  ///   .collect(.byTime(RunLoop.main, .seconds(5)))
  ///   .sink { print("\($0)", terminator: "\n\n") }
  /// // Prints an array of five dates every five seconds.
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream; buffers until a tick with demand.
  ///
  /// - Parameters:
  ///   - strategy: The timing group strategy used by the operator to collect and publish
  ///     elements.
  ///   - options: Scheduler options to use for the strategy.
  /// - Returns: A publisher that collects elements by a given strategy, and emits a single
  ///   array of the collection.
  @inlinable
  public consuming func collect<S: Scheduler>(
    _ strategy: Publishers.TimeGroupingStrategy<S>, options: S.SchedulerOptions? = nil
  )
    -> Publishers.CollectByTime<Self, S>
  {
    Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
  }
}
