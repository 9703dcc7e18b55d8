extension Publishers {
  /// A publisher that publishes elements only after a specified time interval elapses
  /// between events.
  ///
  /// ```swift
  /// let cancellable = searchText
  ///   .debounce(for: .milliseconds(300), scheduler: RunLoop.main)
  ///   .sink { search($0) }
  /// ```
  ///
  /// Each value arriving from upstream replaces the one waiting and restarts the quiet
  /// period; when `dueTime` passes with no new value, the waiting value is delivered on the
  /// scheduler. A completion is delivered on the scheduler as soon as possible, and a
  /// value still waiting for its quiet period is discarded (as Apple's does).
  ///
  /// Back-pressure: requests unlimited from upstream and holds at most one value; a value
  /// whose quiet period ends while downstream has no outstanding demand is dropped.
  @_eagerMove
  public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The amount of time the publisher should wait before publishing an element.
    public let dueTime: Context.SchedulerTimeType.Stride

    /// The scheduler on which this publisher delivers elements.
    public let scheduler: Context

    /// Scheduler options that customize this publisher’s delivery of elements.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that publishes elements only after a specified time interval
    /// elapses between events.
    @inlinable
    public init(
      upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
      options: Context.SchedulerOptions?
    ) {
      self.upstream = upstream
      self.dueTime = dueTime
      self.scheduler = scheduler
      self.options = options
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        DebounceSubscription(
          downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options))
    }
  }
}

extension Publisher {
  /// Publishes elements only after a specified time interval elapses between events.
  ///
  /// Use the `debounce(for:scheduler:options:)` operator to control the number of values
  /// and time between delivery of values from the upstream publisher. This operator is
  /// useful to process bursty or high-volume event streams where you need to reduce the
  /// number of values delivered to the downstream to a rate you specify:
  ///
  /// ```swift
  /// let bounces: [(Int, TimeInterval)] = [
  ///   (0, 0), (1, 0.25), (2, 1), (3, 1.25), (4, 1.5), (5, 2),
  /// ]
  /// let subject = PassthroughSubject<Int, Never>()
  /// cancellable = subject
  ///   .debounce(for: .seconds(0.5), scheduler: RunLoop.main)
  ///   .sink { index in print("Received index \(index)") }
  /// for bounce in bounces {
  ///   DispatchQueue.main.asyncAfter(deadline: .now() + bounce.1) { subject.send(bounce.0) }
  /// }
  /// // Prints:
  /// //  Received index 1
  /// //  Received index 4
  /// //  Received index 5
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream; holds at most one value.
  ///
  /// - Parameters:
  ///   - dueTime: The time the publisher should wait before publishing an element.
  ///   - scheduler: The scheduler on which this publisher delivers elements.
  ///   - options: Scheduler options that customize this publisher’s delivery of elements.
  /// - Returns: A publisher that publishes events only after a specified time elapses.
  @inlinable
  public consuming func debounce<S: Scheduler>(
    for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.Debounce<Self, S> {
    Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
  }
}
