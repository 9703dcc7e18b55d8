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
      upstream.subscribe(
        DelaySubscription(
          downstream: subscriber, interval: interval, tolerance: tolerance, scheduler: scheduler, options: options))
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
  public func delay<S: Scheduler>(
    for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil, scheduler: S,
    options: S.SchedulerOptions? = nil
  ) -> Publishers.Delay<Self, S> {
    Publishers.Delay(
      upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance, scheduler: scheduler,
      options: options)
  }
}

/// Stands between upstream and downstream for `Delay`; shown as `Delay` by `print`.
///
/// Cancel drops the downstream subscriber at once; deliveries still queued on the
/// scheduler then find nothing to deliver to.
@usableFromInline
internal final class DelaySubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline internal let lock = Lock()
  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal let interval: Context.SchedulerTimeType.Stride
  @usableFromInline internal let tolerance: Context.SchedulerTimeType.Stride
  @usableFromInline internal let scheduler: Context
  @usableFromInline internal let options: Context.SchedulerOptions?

  @inlinable
  internal init(
    downstream: Downstream, interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride,
    scheduler: Context, options: Context.SchedulerOptions?
  ) {
    self.downstream = downstream
    self.interval = interval
    self.tolerance = tolerance
    self.scheduler = scheduler
    self.options = options
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    let target = lock.withLock { () -> Downstream? in
      guard status.accept(subscription) else { return nil }
      return downstream
    }
    guard let target else {
      subscription.cancel()
      return
    }
    target.receive(subscription: self)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    let due = scheduler.now.advanced(by: interval)
    scheduler.schedule(after: due, tolerance: tolerance, options: options) { self.deliver(input) }
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    guard lock.withLock({ status.subscription != nil }) else { return }
    let due = scheduler.now.advanced(by: interval)
    scheduler.schedule(after: due, tolerance: tolerance, options: options) { self.deliver(completion) }
  }

  @inlinable
  internal func deliver(_ input: Input) {
    let target = lock.withLock { () -> Downstream? in status.subscription == nil ? nil : downstream }
    guard let target else { return }
    let more = target.receive(input)
    guard more > 0 else { return }
    lock.withLock { status.subscription }?.request(more)
  }

  @inlinable
  internal func deliver(_ completion: Subscribers.Completion<Failure>) {
    let target = lock.withLock { () -> Downstream? in
      guard status.terminate() != nil else { return nil }
      defer { downstream = nil }
      return downstream
    }
    target?.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    lock.withLock { status.subscription }?.request(demand)
  }

  @inlinable
  internal func cancel() {
    let (subscription, released) = lock.withLock { () -> (Subscription?, Downstream?) in
      defer { downstream = nil }
      return (status.terminate(), downstream)
    }
    subscription?.cancel()
    withExtendedLifetime(released) {}
  }

  @usableFromInline internal var description: String { "Delay" }

  @usableFromInline internal var customMirror: Mirror {
    Mirror(self, children: ["downstream": downstream as Any, "interval": interval, "scheduler": scheduler])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}
