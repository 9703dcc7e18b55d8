extension Publishers {
  /// A publisher that delivers elements to its downstream subscriber on a specific
  /// scheduler.
  ///
  /// ```swift
  /// let cancellable = upstream
  ///   .receive(on: DispatchQueue.main)
  ///   .sink { label.text = $0 }
  /// ```
  ///
  /// Each value and the completion is handed to the scheduler with `schedule(options:_:)`,
  /// in the order upstream sent them; the subscription itself reaches downstream at once,
  /// on the subscribing thread.
  ///
  /// Back-pressure: passes downstream demand upstream synchronously, on the thread that
  /// requested it; the demand downstream returns from `receive(_:)` is requested from
  /// upstream after each delivery, on the scheduler. Buffers nothing beyond the scheduler's
  /// own queue.
  public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The scheduler the publisher is to use for element delivery.
    public let scheduler: Context

    /// Scheduler options that customize the delivery of elements.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that delivers elements to its downstream subscriber on a
    /// specific scheduler.
    @inlinable
    public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
      self.upstream = upstream
      self.scheduler = scheduler
      self.options = options
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(ReceiveOnSubscription(downstream: subscriber, scheduler: scheduler, options: options))
    }
  }
}

extension Publisher {
  /// Specifies the scheduler on which to receive elements from the publisher.
  ///
  /// You use `receive(on:options:)` to run the subscriber's work, and the operators
  /// after it, on a particular scheduler, such as the main run loop for UI updates:
  ///
  /// ```swift
  /// let jsonPublisher = MyJSONLoaderPublisher()   // Some publisher.
  /// let labelUpdater = MyLabelUpdateSubscriber()  // Some subscriber that updates the UI.
  ///
  /// jsonPublisher
  ///   .subscribe(on: backgroundQueue)
  ///   .receive(on: RunLoop.main)
  ///   .subscribe(labelUpdater)
  /// ```
  ///
  /// Prefer `receive(on:options:)` over explicit dispatch when performing work in
  /// subscribers. Back-pressure: demand passes upstream synchronously.
  ///
  /// - Parameters:
  ///   - scheduler: The scheduler the publisher uses for element delivery.
  ///   - options: Scheduler options used to customize element delivery.
  /// - Returns: A publisher that delivers elements using the specified scheduler.
  @inlinable
  public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.ReceiveOn<Self, S> {
    Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
  }
}

/// Stands between upstream and downstream for `ReceiveOn`; shown as `ReceiveOn` by `print`.
///
/// Every delivery checks, under the lock, that the subscription is still live, so nothing
/// reaches downstream after `cancel()`; cancel also drops the downstream subscriber at once,
/// so deliveries still queued on the scheduler hold only this small object.
@usableFromInline
internal final class ReceiveOnSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline internal let lock = Lock()
  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal let scheduler: Context
  @usableFromInline internal let options: Context.SchedulerOptions?

  @inlinable
  internal init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
    self.downstream = downstream
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
    scheduler.schedule(options: options) { self.deliver(input) }
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    let isLive = lock.withLock { status.subscription != nil }
    guard isLive else { return }
    scheduler.schedule(options: options) { self.deliver(completion) }
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

  @usableFromInline internal var description: String { "ReceiveOn" }

  @usableFromInline internal var customMirror: Mirror {
    Mirror(self, children: ["downstream": downstream as Any, "scheduler": scheduler])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}
