#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
  @_eagerMove
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
  public consuming func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
    -> Publishers.SubscribeOn<Self, S>
  {
    Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
  }
}

/// Stands between upstream and downstream for `SubscribeOn`; shown as `SubscribeOn`.
///
/// Apple's edges, kept here: each scheduled request or cancel holds this subscription (and
/// so the downstream subscriber) until it has run, and runs even if downstream cancelled in
/// between; the subscription holds its downstream for its whole life; a cancel before the
/// upstream subscription arrives is ignored; a request that re-enters from inside the
/// upstream request it scheduled traps (Apple's does).
@usableFromInline
internal final class SubscribeOnSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline internal let lock = Lock()
  @usableFromInline internal let downstream: Downstream
  // Guarded by `lock`.
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  /// The thread inside an upstream `request` this subscription scheduled, if any: a request
  /// from that same thread is re-entrant.
  @usableFromInline internal var requestingThread: pthread_t?
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
    guard lock.withLock({ status.accept(subscription) }) else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ status.isSubscribed }) else { return .none }
    return downstream.receive(input)
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    guard lock.withLock({ status.terminate() != nil }) else { return }
    downstream.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    // As Apple's: the demand, `.none` included, goes upstream unchecked.
    guard let subscription = lock.withLock({ status.subscription }) else { return }
    scheduler.schedule(options: options) { self.requestUpstream(subscription, demand) }
  }

  /// The scheduled request. Marks the thread it runs on so that a request re-entering from
  /// inside upstream's `request` traps, as Apple's does.
  @usableFromInline
  internal func requestUpstream(_ subscription: Subscription, _ demand: Subscribers.Demand) {
    let current = pthread_self()
    let owns = lock.withLock { () -> Bool in
      if let thread = requestingThread {
        confluencePrecondition(
          pthread_equal(thread, current) == 0,
          "subscribe(on:): request(_:) re-entered from inside the upstream request it scheduled")
        return false
      }
      requestingThread = current
      return true
    }
    subscription.request(demand)
    if owns { lock.withLock { requestingThread = nil } }
  }

  @inlinable
  internal func cancel() {
    let subscription = lock.withLock { () -> Subscription? in
      // Before the subscription Apple ignores a cancel; the subscription is then taken as usual.
      if case .awaitingSubscription = status { return nil }
      return status.terminate()
    }
    guard let subscription else { return }
    scheduler.schedule(options: options) { withExtendedLifetime(self) { subscription.cancel() } }
  }

  @usableFromInline internal var description: String { "SubscribeOn" }

  /// As Apple's: no children.
  @usableFromInline internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline internal var playgroundDescription: Any { description }
}
