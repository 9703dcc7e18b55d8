extension Publishers {
  /// A publisher that measures and emits the time interval between events received from
  /// an upstream publisher.
  ///
  /// ```swift
  /// let cancellable = Timer.publish(every: 1, on: .main, in: .default)
  ///   .autoconnect()
  ///   .measureInterval(using: RunLoop.main)
  ///   .sink { print("\($0)") }   // about one second each
  /// ```
  ///
  /// The first interval is measured from the moment of subscription. Events are delivered
  /// on the thread upstream sends them; the scheduler is used only as a clock.
  ///
  /// Back-pressure: passes demand through unchanged (the further demand a subscriber
  /// returns from `receive(_:)` is requested from upstream); buffers nothing.
  @_eagerMove
  public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Context.SchedulerTimeType.Stride
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The scheduler used for tracking the timing of events.
    public let scheduler: Context

    /// Creates a publisher that measures and emits the time interval between events
    /// received from an upstream publisher.
    @inlinable
    public init(upstream: Upstream, scheduler: Context) {
      self.upstream = upstream
      self.scheduler = scheduler
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        MeasureIntervalSubscription<Upstream.Output, S, Context>(
          downstream: subscriber, scheduler: scheduler))
    }
  }
}

extension Publisher {
  /// Measures and emits the time interval between events received from an upstream
  /// publisher.
  ///
  /// Use `measureInterval(using:options:)` to measure the time between events delivered
  /// from an upstream publisher:
  ///
  /// ```swift
  /// cancellable = Timer.publish(every: 1, on: .main, in: .default)
  ///   .autoconnect()
  ///   .measureInterval(using: RunLoop.main)
  ///   .sink { print("\($0)", terminator: "\n") }
  /// // Prints:
  /// //      Stride(magnitude: 1.0013610124588013)
  /// //      Stride(magnitude: 0.9992760419845581)
  /// ```
  ///
  /// The output type is the scheduler's `SchedulerTimeType.Stride`. Back-pressure: demand
  /// passes through unchanged.
  ///
  /// - Parameters:
  ///   - scheduler: A scheduler to use for tracking the timing of events.
  ///   - options: Options that customize the delivery of elements (unused: nothing is
  ///     scheduled).
  /// - Returns: A publisher that emits elements representing the time interval between the
  ///   elements it receives.
  @inlinable
  public consuming func measureInterval<S: Scheduler>(using scheduler: S, options: S.SchedulerOptions? = nil)
    -> Publishers.MeasureInterval<Self, S>
  {
    Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
  }
}

/// Stands between upstream and downstream for `MeasureInterval`; shown as
/// `MeasureInterval` by `print`.
@usableFromInline
internal final class MeasureIntervalSubscription<Input, Downstream: Subscriber, Context: Scheduler>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Context.SchedulerTimeType.Stride {
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline internal let lock = Lock()
  @usableFromInline internal let downstream: Downstream
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal let scheduler: Context
  @usableFromInline internal var last: Context.SchedulerTimeType?

  @inlinable
  internal init(downstream: Downstream, scheduler: Context) {
    self.downstream = downstream
    self.scheduler = scheduler
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    let now = scheduler.now
    let accepted = lock.withLock { () -> Bool in
      guard status.accept(subscription) else { return false }
      last = now
      return true
    }
    guard accepted else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    // `now` is read under the lock so that nothing asks the scheduler once cancelled (as
    // Apple's); a scheduler's clock does not call back into the pipeline.
    let interval = lock.withLock { () -> Context.SchedulerTimeType.Stride? in
      guard case .subscribed = status, let previous = last else { return nil }
      let now = scheduler.now
      last = now
      return previous.distance(to: now)
    }
    guard let interval else { return .none }
    // As Apple's: downstream's further demand is requested from upstream, not returned.
    let more = downstream.receive(interval)
    if more > 0 { lock.withLock { status }.requestAndRelease(more) }
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    guard lock.withLock({ status.terminate() }) != nil else { return }
    downstream.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    // As Apple's: the demand, `.none` included, goes upstream unchecked.
    lock.withLock { status }.requestAndRelease(demand)
  }

  @inlinable
  internal func cancel() {
    // Before the subscription Apple ignores a cancel; the subscription is then taken as usual.
    lock.withLock { () -> Subscription? in
      if case .awaitingSubscription = status { return nil }
      return status.terminate()
    }?.cancel()
  }

  @usableFromInline internal var description: String { "MeasureInterval" }

  /// As Apple's: no children.
  @usableFromInline internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline internal var playgroundDescription: Any { description }
}
