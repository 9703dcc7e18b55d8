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
      upstream.subscribe(
        DebounceSubscription(downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options))
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
  public func debounce<S: Scheduler>(
    for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.Debounce<Self, S> {
    Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
  }
}

/// Stands between upstream and downstream for `Debounce`; shown as `Debounce` by `print`.
///
/// Each value gets a generation number; a quiet-period timer delivers only if its
/// generation is still the latest, so a superseded timer does nothing. Cancel drops the
/// downstream subscriber and the waiting value at once; timers still queued on the
/// scheduler then hold only this small object.
@usableFromInline
internal final class DebounceSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline internal let lock = Lock()
  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var waiting: Input?
  @usableFromInline internal var generation = 0
  @usableFromInline internal var upstreamFinished = false
  /// The armed timer (a repeating schedule, as Apple's), cancelled when re-armed or done.
  @usableFromInline internal var timer: Cancellable?
  @usableFromInline internal let dueTime: Context.SchedulerTimeType.Stride
  @usableFromInline internal let scheduler: Context
  @usableFromInline internal let options: Context.SchedulerOptions?

  @inlinable
  internal init(
    downstream: Downstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
    options: Context.SchedulerOptions?
  ) {
    self.downstream = downstream
    self.dueTime = dueTime
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
    subscription.request(.unlimited)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    let ticket = lock.withLock { () -> Int? in
      guard status.subscription != nil, !upstreamFinished else { return nil }
      generation += 1
      waiting = input
      return generation
    }
    // As Apple's: once finished or cancelled the scheduler is not asked for the time.
    guard let ticket else { return .none }
    let due = scheduler.now.advanced(by: dueTime)
    // As Apple's: a repeating schedule per value, replacing the previous one; it keeps
    // this subscription alive until cancelled (when it fires, is replaced, or the
    // subscription ends).
    let armed = scheduler.schedule(
      after: due, interval: dueTime, tolerance: scheduler.minimumTolerance, options: options
    ) {
      self.quietPeriodEnded(ticket)
    }
    let replaced = lock.withLock { () -> Cancellable? in
      if case .terminal = status { return armed }
      defer { timer = armed }
      return timer
    }
    replaced?.cancel()
    return .none
  }

  @inlinable
  internal func quietPeriodEnded(_ ticket: Int) {
    let (delivery, stopped) = lock.withLock { () -> ((Downstream, Input)?, Cancellable?) in
      guard ticket == generation else { return (nil, nil) }
      let stopped = timer.take()
      guard status.subscription != nil, !upstreamFinished, let value = waiting, let downstream else {
        return (nil, stopped)
      }
      waiting = nil
      guard demand > 0 else { return (nil, stopped) }
      demand -= 1
      return ((downstream, value), stopped)
    }
    stopped?.cancel()
    guard let (target, value) = delivery else { return }
    let more = target.receive(value)
    if more > 0 { lock.withLock { demand += more } }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    let isLive = lock.withLock { () -> Bool in
      guard status.subscription != nil, !upstreamFinished else { return false }
      upstreamFinished = true
      waiting = nil
      return true
    }
    guard isLive else { return }
    // As Apple's: the completion is scheduled without the operator's options.
    scheduler.schedule(options: nil) { self.deliver(completion) }
  }

  @inlinable
  internal func deliver(_ completion: Subscribers.Completion<Failure>) {
    let taken = lock.withLock { () -> (Downstream?, Cancellable?)? in
      guard status.terminate() != nil else { return nil }
      defer { downstream = nil }
      return (downstream, timer.take())
    }
    guard let (target, timer) = taken else { return }
    timer?.cancel()
    target?.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    lock.withLock { self.demand += demand }
  }

  @inlinable
  internal func cancel() {
    // As Apple's: the subscription keeps its downstream after a cancel (a timer still
    // queued on the scheduler keeps both alive until it is dropped or has run).
    let (subscription, value, timer) = lock.withLock { () -> (Subscription?, Input?, Cancellable?) in
      // As Apple's: a cancel before upstream subscribed is not remembered.
      if case .awaitingSubscription = status { return (nil, nil, nil) }
      defer { waiting = nil }
      return (status.terminate(), waiting, self.timer.take())
    }
    timer?.cancel()
    subscription?.cancel()
    withExtendedLifetime(value) {}
  }

  @usableFromInline internal var description: String { "Debounce" }

  /// As Apple's: the downstream, its outstanding demand and the value waiting for quiet.
  @usableFromInline internal var customMirror: Mirror {
    let (downstream, demand, waiting) = lock.withLock { (self.downstream, self.demand, self.waiting) }
    return Mirror(
      self, children: ["downstream": downstream as Any, "downstreamDemand": demand, "currentValue": waiting as Any])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}
