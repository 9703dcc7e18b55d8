extension Publishers {
  /// A publisher that delays delivery of elements and completion to the downstream
  /// receiver.
  ///
  /// ```swift
  /// let cancellable = Just("late")
  ///   .delay(for: .seconds(2), scheduler: RunLoop.main)
  ///   .sink { print($0) }   // two seconds later: late
  /// ```
  ///
  /// Each value and the completion is scheduled on the scheduler for `interval` after it
  /// arrived, so the spacing between events is kept. The subscription reaches downstream
  /// at once.
  ///
  /// Back-pressure: passes downstream demand upstream synchronously; the demand downstream
  /// returns from `receive(_:)` is requested from upstream after each delayed delivery.
  @_eagerMove
  public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The amount of time to delay.
    public let interval: Context.SchedulerTimeType.Stride

    /// The allowed tolerance in firing delayed events.
    public let tolerance: Context.SchedulerTimeType.Stride

    /// The scheduler to deliver the delayed events.
    public let scheduler: Context

    /// Options relevant to the scheduler’s behavior.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that delays delivery of elements and completion to the
    /// downstream receiver.
    @inlinable
    public init(
      upstream: Upstream, interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride,
      scheduler: Context, options: Context.SchedulerOptions? = nil
    ) {
      self.upstream = upstream
      self.interval = interval
      self.tolerance = tolerance
      self.scheduler = scheduler
      self.options = options
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        SchedulerHopSubscription(
          downstream: subscriber,
          hop: DelayHop(interval: interval, tolerance: tolerance, scheduler: scheduler, options: options)))
    }
  }
}

extension Publisher {
  /// Delays delivery of all output to the downstream receiver by a specified amount of
  /// time on a particular scheduler.
  ///
  /// Use `delay(for:tolerance:scheduler:options:)` when you need to delay the delivery of
  /// elements to a downstream by a specified amount of time:
  ///
  /// ```swift
  /// let df = DateFormatter()
  /// df.dateStyle = .none
  /// df.timeStyle = .long
  /// cancellable = Timer.publish(every: 1.0, on: .main, in: .default)
  ///   .autoconnect()
  ///   .handleEvents(receiveOutput: { date in print("Sending Timestamp \(df.string(from: date)) to delay()") })
  ///   .delay(for: .seconds(3), scheduler: RunLoop.main, options: .none)
  ///   .sink(
  ///     receiveCompletion: { print("completion: \($0)", terminator: "\n") },
  ///     receiveValue: { value in print("At \(df.string(from: Date())) received \(df.string(from: value))") })
  /// ```
  ///
  /// Back-pressure: demand passes upstream unchanged.
  ///
  /// - Parameters:
  ///   - interval: The amount of time to delay.
  ///   - tolerance: The allowed tolerance in delivering delayed events. The `Delay`
  ///     publisher may deliver elements this much sooner or later than the interval
  ///     specifies; `nil` means the scheduler's minimum tolerance.
  ///   - scheduler: The scheduler to deliver the delayed events.
  ///   - options: Options relevant to the scheduler’s behavior.
  /// - Returns: A publisher that delays delivery of elements and completion to the
  ///   downstream receiver.
  @inlinable
  public consuming func delay<S: Scheduler>(
    for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil, scheduler: S,
    options: S.SchedulerOptions? = nil
  ) -> Publishers.Delay<Self, S> {
    Publishers.Delay(
      upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance, scheduler: scheduler,
      options: options)
  }
}
