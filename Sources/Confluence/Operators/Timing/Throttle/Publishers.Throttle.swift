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
  /// - A value that arrives sooner opens a window of `interval` from its arrival; when the
  ///   window closes, the most recent value of the window (`latest: true`) or its first
  ///   (`latest: false`) is published, and the others are dropped.
  /// - On `.finished`, a value still waiting for its window is published at once, then the
  ///   completion; on failure the waiting value is dropped. Completions are delivered on
  ///   the scheduler.
  ///
  /// Back-pressure: requests unlimited from upstream and holds at most one value; a value
  /// whose window closes while downstream has no demand waits for the next request.
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
      upstream.subscribe(
        ThrottleSubscription(downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest))
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
  /// Back-pressure: requests unlimited from upstream; holds at most one value.
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
  public func throttle<S: Scheduler>(for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool)
    -> Publishers.Throttle<Self, S>
  {
    Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
  }
}

/// Stands between upstream and downstream for `Throttle`; shown as `Throttle` by `print`.
@usableFromInline
internal final class ThrottleSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  /// What to ask of the scheduler after a value arrived.
  @usableFromInline
  internal enum Emission {
    case none
    case now
    case at(Context.SchedulerTimeType)
  }

  @usableFromInline internal let lock = Lock()
  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var waiting: Input?
  @usableFromInline internal var emissionScheduled = false
  @usableFromInline internal var lastEmission: Context.SchedulerTimeType?
  @usableFromInline internal var upstreamFinished = false
  /// Downstream cancelled; checked before a completion that follows the last value, since
  /// downstream may cancel inside that value's `receive`.
  @usableFromInline internal var isCancelled = false
  @usableFromInline internal let interval: Context.SchedulerTimeType.Stride
  @usableFromInline internal let scheduler: Context
  @usableFromInline internal let latest: Bool

  @inlinable
  internal init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
    self.downstream = downstream
    self.interval = interval
    self.scheduler = scheduler
    self.latest = latest
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
    let now = scheduler.now
    let emission = lock.withLock { () -> Emission in
      guard status.subscription != nil, !upstreamFinished else { return .none }
      if latest || waiting == nil { waiting = input }
      guard !emissionScheduled else { return .none }
      emissionScheduled = true
      if let lastEmission, lastEmission.distance(to: now) < interval {
        return .at(now.advanced(by: interval))
      }
      return .now
    }
    switch emission {
    case .none: break
    case .now: scheduler.schedule(options: nil) { self.emit() }
    case .at(let due): scheduler.schedule(after: due, tolerance: scheduler.minimumTolerance, options: nil) { self.emit() }
    }
    return .none
  }

  @inlinable
  internal func emit() {
    let now = scheduler.now
    let delivery = lock.withLock { () -> (Downstream, Input)? in
      emissionScheduled = false
      guard status.subscription != nil, !upstreamFinished, let downstream, let value = waiting, demand > 0 else {
        return nil
      }
      waiting = nil
      demand -= 1
      lastEmission = now
      return (downstream, value)
    }
    guard let (target, value) = delivery else { return }
    let more = target.receive(value)
    if more > 0 { request(more) }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    let isLive = lock.withLock { () -> Bool in
      guard status.subscription != nil, !upstreamFinished else { return false }
      upstreamFinished = true
      if case .failure = completion { waiting = nil }
      return true
    }
    guard isLive else { return }
    scheduler.schedule(options: nil) { self.finish(completion) }
  }

  @inlinable
  internal func finish(_ completion: Subscribers.Completion<Failure>) {
    let (target, last) = lock.withLock { () -> (Downstream?, Input?) in
      guard status.terminate() != nil else { return (nil, nil) }
      defer {
        downstream = nil
        waiting = nil
      }
      return (downstream, demand > 0 ? waiting : nil)
    }
    guard let target else { return }
    if let last {
      _ = target.receive(last)
      // Nothing reaches a subscriber after its cancel, even one made inside that value.
      if lock.withLock({ isCancelled }) { return }
    }
    target.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    let emitNow = lock.withLock { () -> Bool in
      self.demand += demand
      guard status.subscription != nil, !upstreamFinished, waiting != nil, !emissionScheduled else { return false }
      emissionScheduled = true
      return true
    }
    if emitNow { scheduler.schedule(options: nil) { self.emit() } }
  }

  @inlinable
  internal func cancel() {
    let (subscription, released, value) = lock.withLock { () -> (Subscription?, Downstream?, Input?) in
      defer {
        downstream = nil
        waiting = nil
        isCancelled = true
      }
      return (status.terminate(), downstream, waiting)
    }
    subscription?.cancel()
    withExtendedLifetime((released, value)) {}
  }

  @usableFromInline internal var description: String { "Throttle" }

  @usableFromInline internal var customMirror: Mirror {
    Mirror(self, children: ["downstream": downstream as Any, "interval": interval, "scheduler": scheduler])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}
