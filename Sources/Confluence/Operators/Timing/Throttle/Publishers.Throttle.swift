extension Publishers {
  /// A publisher that publishes either the most-recent or first element published by the
  /// upstream publisher in a specified time interval.
  ///
  /// ```swift
  /// let cancellable = $username
  ///   .throttle(for: 0.5, scheduler: myBackgroundQueue, latest: true)
  ///   .sink { lookUp($0) }
  /// ```
  ///
  /// How the windows fall, as Apple's `throttle` does:
  /// - A value that arrives when nothing was published for at least `interval` (or
  ///   nothing yet) is published at once (on the scheduler, as soon as possible).
  /// - A value that arrives sooner waits for the window to end: `interval` after the last
  ///   publication (not after its own arrival). Then the most recent value received since
  ///   (`latest: true`) or the first (`latest: false`) is published, and the others are
  ///   dropped.
  /// - A completion, finished or failed, that arrives while a value waits for its window
  ///   is delivered with it, right after the value; otherwise it is delivered on the
  ///   scheduler as soon as possible.
  ///
  /// Back-pressure: requests unlimited from upstream and holds at most one value. A value
  /// that arrives while downstream has no outstanding demand is dropped at once (nothing is
  /// scheduled for it), and so is one whose window ends after the downstream used up its
  /// demand; a later request does not bring either back.
  @_eagerMove
  public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The interval in which to find and emit the most recent element.
    public let interval: Context.SchedulerTimeType.Stride

    /// The scheduler on which to publish elements.
    public let scheduler: Context

    /// A Boolean value indicating whether to publish the most recent element.
    ///
    /// If `false`, the publisher emits the first element received during the interval.
    public let latest: Bool

    /// Creates a publisher that publishes either the most-recent or first element
    /// published by the upstream publisher in a specified time interval.
    @inlinable
    public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
      self.upstream = upstream
      self.interval = interval
      self.scheduler = scheduler
      self.latest = latest
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        ThrottleSubscription(
          downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest))
    }
  }
}

extension Publisher {
  /// Publishes either the most-recent or first element published by the upstream
  /// publisher in the specified time interval.
  ///
  /// Use `throttle(for:scheduler:latest:)` to selectively republish elements from an
  /// upstream publisher during an interval you specify. Other elements received from the
  /// upstream in the throttling interval aren’t republished. The first element is
  /// published at once; after that, one element per interval:
  ///
  /// ```swift
  /// cancellable = Timer.publish(every: 3.0, on: .main, in: .default)
  ///   .autoconnect()
  ///   .throttle(for: 10.0, scheduler: RunLoop.main, latest: true)
  ///   .sink(
  ///     receiveCompletion: { print("Completion: \($0).") },
  ///     receiveValue: { print("Received Timestamp \($0).") })
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream; holds at most one value, and only
  /// while downstream has outstanding demand (a value that arrives without it is dropped).
  ///
  /// - Parameters:
  ///   - interval: The interval at which to find and emit either the most recent or the
  ///     first element, expressed in the time system of the scheduler.
  ///   - scheduler: The scheduler on which to publish elements.
  ///   - latest: A Boolean value that indicates whether to publish the most recent
  ///     element. If `false`, the publisher emits the first element received during the
  ///     interval.
  /// - Returns: A publisher that emits either the most-recent or first element received
  ///   during the specified interval.
  @inlinable
  public consuming func throttle<S: Scheduler>(for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool)
    -> Publishers.Throttle<Self, S>
  {
    Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
  }
}
