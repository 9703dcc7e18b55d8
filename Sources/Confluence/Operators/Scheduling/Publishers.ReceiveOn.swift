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
  @_eagerMove
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
      upstream._subscribeUpstream(
        SchedulerHopSubscription(
          downstream: subscriber, hop: ReceiveOnHop(scheduler: scheduler, options: options)))
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
  public consuming func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
    -> Publishers.ReceiveOn<Self, S>
  {
    Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
  }
}
