extension Publishers {
  /// A publisher that receives elements from an upstream publisher on a specific
  /// scheduler.
  ///
  /// ```swift
  /// let cancellable = expensivePublisher
  ///   .subscribe(on: backgroundQueue)
  ///   .sink { print($0) }
  /// ```
  ///
  /// The subscription to upstream, every `request(_:)` and `cancel()` are performed on the
  /// scheduler; values and the completion pass through on whatever thread upstream sends
  /// them.
  ///
  /// Back-pressure: passes demand upstream unchanged (on the scheduler); buffers nothing.
  public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The scheduler the publisher should use to receive elements.
    public let scheduler: Context

    /// Scheduler options that customize the delivery of elements.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that receives elements from an upstream publisher on a specific
    /// scheduler.
    @inlinable
    public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
      self.upstream = upstream
      self.scheduler = scheduler
      self.options = options
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let inner = SubscribeOnSubscription(downstream: subscriber, scheduler: scheduler, options: options)
      let upstream = self.upstream
      scheduler.schedule(options: options) { upstream.subscribe(inner) }
    }
  }
}

extension Publisher {
  /// Specifies the scheduler on which to perform subscribe, cancel, and request operations.
  ///
  /// In contrast with `receive(on:options:)`, which affects downstream messages,
  /// `subscribe(on:options:)` changes the execution context of upstream messages:
  ///
  /// ```swift
  /// let ioPerformingPublisher = // Some publisher.
  /// let uiUpdatingSubscriber = // Some subscriber that updates the UI.
  ///
  /// ioPerformingPublisher
  ///   .subscribe(on: backgroundQueue)
  ///   .receive(on: RunLoop.main)
  ///   .subscribe(uiUpdatingSubscriber)
  /// ```
  ///
  /// Using `subscribe(on:options:)` also causes the upstream publisher to perform
  /// `cancel()` using the specified scheduler. Back-pressure: demand passes upstream
  /// unchanged, on the scheduler.
  ///
  /// - Parameters:
  ///   - scheduler: The scheduler used to send messages to upstream publishers.
  ///   - options: Options that customize the delivery of elements.
  /// - Returns: A publisher which performs upstream operations on the specified scheduler.
  @inlinable
  public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
    -> Publishers.SubscribeOn<Self, S>
  {
    Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
  }
}

/// Stands between upstream and downstream for `SubscribeOn`; shown as `SubscribeOn`.
@usableFromInline
internal final class SubscribeOnSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
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
    guard let target = lock.withLock({ status.subscription == nil ? nil : downstream }) else { return .none }
    return target.receive(input)
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    let target = lock.withLock { () -> Downstream? in
      guard status.terminate() != nil else { return nil }
      defer { downstream = nil }
      return downstream
    }
    target?.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    // As Apple's: the demand, `.none` included, goes upstream unchecked.
    guard let subscription = lock.withLock({ status.subscription }) else { return }
    scheduler.schedule(options: options) { subscription.request(demand) }
  }

  @inlinable
  internal func cancel() {
    let (subscription, released) = lock.withLock { () -> (Subscription?, Downstream?) in
      defer { downstream = nil }
      return (status.terminate(), downstream)
    }
    withExtendedLifetime(released) {}
    guard let subscription else { return }
    scheduler.schedule(options: options) { subscription.cancel() }
  }

  @usableFromInline internal var description: String { "SubscribeOn" }

  @usableFromInline internal var customMirror: Mirror {
    Mirror(self, children: ["downstream": downstream as Any, "scheduler": scheduler])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}
