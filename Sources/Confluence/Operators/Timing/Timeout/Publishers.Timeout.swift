#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Publishers {
  /// A publisher that terminates publishing if the upstream publisher exceeds the
  /// specified time interval without producing an element.
  ///
  /// ```swift
  /// let cancellable = subject
  ///   .timeout(.seconds(5), scheduler: DispatchQueue.main)
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// The clock starts when the subscription arrives and restarts with every value. If it
  /// runs out, the publisher cancels upstream and finishes — or fails with
  /// `customError()` if you gave one. Values and the upstream's completion are delivered on
  /// the scheduler, in order.
  ///
  /// Back-pressure: passes downstream demand upstream synchronously; the demand
  /// downstream returns from `receive(_:)` is requested after each delivery.
  public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The maximum time interval the publisher can go without emitting an element,
    /// expressed in the time system of the scheduler.
    public let interval: Context.SchedulerTimeType.Stride

    /// The scheduler on which to deliver events.
    public let scheduler: Context

    /// Scheduler options that customize the delivery of elements.
    public let options: Context.SchedulerOptions?

    /// A closure that executes if the publisher times out. The publisher sends the failure
    /// returned by this closure to the subscriber as the reason for termination.
    public let customError: (() -> Upstream.Failure)?

    /// Creates a publisher that terminates publishing if the upstream publisher exceeds the
    /// specified time interval without producing an element.
    @inlinable
    public init(
      upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
      options: Context.SchedulerOptions?, customError: (() -> Publishers.Timeout<Upstream, Context>.Failure)?
    ) {
      self.upstream = upstream
      self.interval = interval
      self.scheduler = scheduler
      self.options = options
      self.customError = customError
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        TimeoutSubscription(
          downstream: subscriber, interval: interval, scheduler: scheduler, options: options, customError: customError))
    }
  }
}

extension Publisher {
  /// Terminates publishing if the upstream publisher exceeds the specified time interval
  /// without producing an element.
  ///
  /// Use `timeout(_:scheduler:options:customError:)` to terminate a publisher if an
  /// element isn’t delivered within a timeout interval you specify:
  ///
  /// ```swift
  /// let subject = PassthroughSubject<String, Never>()
  /// let cancellable = subject
  ///   .timeout(.seconds(5), scheduler: DispatchQueue.main, options: nil, customError: nil)
  ///   .sink(
  ///     receiveCompletion: { print("completion: \($0) at \(Date())") },
  ///     receiveValue: { print("value: \($0) at \(Date())") })
  /// DispatchQueue.main.asyncAfter(deadline: .now() + .seconds(2)) { subject.send("Some data") }
  /// // Prints: value: Some data at 2020-03-10 23:47:59 +0000
  /// //         completion: finished at 2020-03-10 23:48:04 +0000
  /// ```
  ///
  /// If `customError` is `nil`, the publisher completes normally; if you provide a closure,
  /// its error is sent downstream as a failure. Back-pressure: demand passes upstream
  /// unchanged.
  ///
  /// - Parameters:
  ///   - interval: The maximum time interval the publisher can go without emitting an
  ///     element, expressed in the time system of the scheduler.
  ///   - scheduler: The scheduler to deliver events on.
  ///   - options: Scheduler options that customize the delivery of elements.
  ///   - customError: A closure that executes if the publisher times out. The publisher
  ///     sends the failure returned by this closure to the subscriber as the reason for
  ///     termination.
  /// - Returns: A publisher that terminates if the specified interval elapses with no
  ///   events received from the upstream publisher.
  @inlinable
  public func timeout<S: Scheduler>(
    _ interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil,
    customError: (() -> Self.Failure)? = nil
  ) -> Publishers.Timeout<Self, S> {
    Publishers.Timeout(upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
  }
}

/// Stands between upstream and downstream for `Timeout`; shown as `Timeout` by `print`.
///
/// Each restart of the clock gets a generation number; a timer fires only if its
/// generation is still the latest. Cancel, completion and timeout drop the downstream
/// subscriber and `customError` at once.
@usableFromInline
internal final class TimeoutSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline internal let lock = Lock()
  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var customError: (() -> Failure)?
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var generation = 0
  @usableFromInline internal var upstreamFinished = false
  /// The armed timer (a repeating schedule, as Apple's), cancelled when re-armed or done.
  @usableFromInline internal var timer: Cancellable?
  /// Whether downstream has requested yet: its first request arms the timer again.
  @usableFromInline internal var hasRequested = false
  /// The thread inside `scheduler.schedule` arming the timer, if any: the timer firing on
  /// that thread from inside the call (an immediate scheduler) traps, as Apple's does.
  @usableFromInline internal var armingThread: pthread_t?
  @usableFromInline internal let interval: Context.SchedulerTimeType.Stride
  @usableFromInline internal let scheduler: Context
  @usableFromInline internal let options: Context.SchedulerOptions?

  @inlinable
  internal init(
    downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
    options: Context.SchedulerOptions?, customError: (() -> Failure)?
  ) {
    self.downstream = downstream
    self.interval = interval
    self.scheduler = scheduler
    self.options = options
    self.customError = customError
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    let current = pthread_self()
    let target = lock.withLock { () -> Downstream? in
      guard status.accept(subscription) else { return nil }
      armingThread = current
      return downstream
    }
    guard let target else {
      subscription.cancel()
      return
    }
    armTimer(generation: 0)
    target.receive(subscription: self)
  }

  /// Arms the timer for `ticket`, replacing the previous one. As Apple's: a repeating
  /// schedule (`schedule(after: now + interval, interval: interval, tolerance:
  /// minimumTolerance, options:)`), stopped when it fires or the subscription ends.
  @inlinable
  internal func armTimer(generation ticket: Int) {
    let due = scheduler.now.advanced(by: interval)
    let armed = scheduler.schedule(
      after: due, interval: interval, tolerance: scheduler.minimumTolerance, options: options
    ) {
      // Strong, as Apple's: an armed timer keeps the subscription (and its downstream)
      // alive; cancelling the timer lets go.
      self.timerFired(ticket)
    }
    let replaced = lock.withLock { () -> Cancellable? in
      armingThread = nil
      if case .terminal = status {
        return armed
      }
      defer { timer = armed }
      return timer
    }
    replaced?.cancel()
  }

  @inlinable
  internal func timerFired(_ ticket: Int) {
    let current = pthread_self()
    let fired = lock.withLock { () -> (Downstream, Subscription, (() -> Failure)?)? in
      if let arming = armingThread {
        precondition(
          pthread_equal(arming, current) == 0,
          "timeout: the scheduler ran the timeout action from inside scheduling it (an immediate scheduler cannot time out)"
        )
      }
      guard ticket == generation, !upstreamFinished, let downstream, let subscription = status.terminate() else {
        return nil
      }
      defer {
        self.downstream = nil
        customError = nil
      }
      return (downstream, subscription, customError)
    }
    guard let (target, subscription, makeError) = fired else { return }
    lock.withLock { timer.take() }?.cancel()
    subscription.cancel()
    target.receive(completion: makeError.map { .failure($0()) } ?? .finished)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    let current = pthread_self()
    let ticket = lock.withLock { () -> Int? in
      guard status.subscription != nil, !upstreamFinished else { return nil }
      generation += 1
      armingThread = current
      return generation
    }
    guard let ticket else { return .none }
    armTimer(generation: ticket)
    scheduler.schedule(options: options) { self.deliver(input) }
    return .none
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
  internal func receive(completion: Subscribers.Completion<Failure>) {
    let isLive = lock.withLock { () -> Bool in
      guard status.subscription != nil, !upstreamFinished else { return false }
      upstreamFinished = true
      return true
    }
    guard isLive else { return }
    scheduler.schedule(options: options) { self.deliver(completion) }
  }

  @inlinable
  internal func deliver(_ completion: Subscribers.Completion<Failure>) {
    let taken = lock.withLock { () -> (Downstream?, Cancellable?)? in
      guard status.terminate() != nil else { return nil }
      defer {
        downstream = nil
        customError = nil
      }
      return (downstream, timer.take())
    }
    guard let (target, timer) = taken else { return }
    timer?.cancel()
    target?.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    // As Apple's: the demand, `.none` included, goes upstream unchecked, and the first
    // request arms the timer again.
    let current = pthread_self()
    let (subscription, rearm) = lock.withLock { () -> (Subscription?, Int?) in
      guard let subscription = status.subscription else { return (nil, nil) }
      defer { hasRequested = true }
      if hasRequested { return (subscription, nil) }
      armingThread = current
      return (subscription, generation)
    }
    if let rearm { armTimer(generation: rearm) }
    subscription?.request(demand)
  }

  @inlinable
  internal func cancel() {
    // As Apple's: the subscription keeps its downstream after a cancel (an action still
    // queued on the scheduler keeps both alive until it has run).
    let (subscription, timer) = lock.withLock { () -> (Subscription?, Cancellable?) in
      // As Apple's: a cancel before upstream subscribed is not remembered.
      if case .awaitingSubscription = status { return (nil, nil) }
      return (status.terminate(), self.timer.take())
    }
    timer?.cancel()
    subscription?.cancel()
  }

  @usableFromInline internal var description: String { "Timeout" }

  /// No children, as Apple's.
  @usableFromInline internal var customMirror: Mirror {
    Mirror(self, children: [:])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}
