extension Publishers {
  /// A publisher that buffers and periodically publishes its items.
  ///
  /// ```swift
  /// let cancellable = clicks
  ///   .collect(.byTime(RunLoop.main, .seconds(1)))
  ///   .sink { print("\($0.count) clicks this second") }
  /// ```
  ///
  /// A repeating timer on the strategy's scheduler starts at subscription; at every tick
  /// the values gathered since the last tick are published as one array (nothing is sent
  /// for an empty tick). With `.byTimeOrCount`, a full buffer of `count` values is
  /// published at once, on the thread that delivered the last value, without waiting for
  /// the tick. On `.finished` the values gathered so far are published, then the
  /// completion; on failure they are dropped and the failure is forwarded.
  ///
  /// Back-pressure: requests unlimited from upstream. A tick or full buffer that finds no
  /// downstream demand keeps the values and goes on buffering until demand arrives.
  ///
  /// - Complexity: Memory grows with the number of values gathered between publications.
  public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = [Upstream.Output]
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// The strategy with which to collect and publish elements.
    public let strategy: Publishers.TimeGroupingStrategy<Context>

    /// `Scheduler` options to use for the strategy.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that buffers and periodically publishes its items.
    @inlinable
    public init(upstream: Upstream, strategy: Publishers.TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?) {
      self.upstream = upstream
      self.strategy = strategy
      self.options = options
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        CollectByTimeSubscription<Upstream.Output, S, Context>(downstream: subscriber, strategy: strategy, options: options))
    }
  }
}

extension Publisher {
  /// Collects elements by a given time-grouping strategy, and emits a single array of the
  /// collection.
  ///
  /// Use `collect(_:options:)` to emit arrays of elements on a schedule specified by a
  /// `Scheduler` and `Stride` that you provide. At the end of each scheduled interval, the
  /// publisher sends an array that contains the items it collected. If the upstream
  /// publisher finishes before filling the buffer, the publisher sends an array that
  /// contains items it received. This may be fewer than the number of elements specified
  /// in the requested `Stride`. If the upstream publisher fails with an error, this
  /// publisher forwards the error to the downstream receiver instead of sending its output.
  ///
  /// ```swift
  /// let sub = Timer.publish(every: 1, on: .main, in: .default)
  ///   .autoconnect()
  ///   .collect(.byTime(RunLoop.main, .seconds(5)))
  ///   .sink { print("\($0)", terminator: "\n\n") }
  /// // Prints an array of five dates every five seconds.
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream; buffers until a tick with demand.
  ///
  /// - Parameters:
  ///   - strategy: The timing group strategy used by the operator to collect and publish
  ///     elements.
  ///   - options: Scheduler options to use for the strategy.
  /// - Returns: A publisher that collects elements by a given strategy, and emits a single
  ///   array of the collection.
  @inlinable
  public func collect<S: Scheduler>(_ strategy: Publishers.TimeGroupingStrategy<S>, options: S.SchedulerOptions? = nil)
    -> Publishers.CollectByTime<Self, S>
  {
    Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
  }
}

/// Stands between upstream and downstream for `CollectByTime`; shown as `CollectByTime`.
///
/// Holds the repeating timer's cancellable; cancel and completion cancel the timer and drop
/// the buffer and the downstream subscriber.
@usableFromInline
internal final class CollectByTimeSubscription<Input, Downstream: Subscriber, Context: Scheduler>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == [Input] {
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline internal let lock = Lock()
  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var buffer: [Input] = []
  @usableFromInline internal var timer: Cancellable?
  /// Whether a thread is inside downstream's `receive` right now.
  @usableFromInline internal var isDelivering = false
  /// A publish that found delivery taken (`true`: only if the buffer is full).
  @usableFromInline internal var pendingPublish: Bool?
  /// A completion that arrived while a batch was being delivered.
  @usableFromInline internal var pendingCompletion: Subscribers.Completion<Failure>?
  /// Downstream cancelled; checked before a completion that follows a last batch, since
  /// downstream may cancel inside that batch's `receive`.
  @usableFromInline internal var isCancelled = false
  @usableFromInline internal let scheduler: Context
  @usableFromInline internal let interval: Context.SchedulerTimeType.Stride
  @usableFromInline internal let maximumCount: Int
  @usableFromInline internal let options: Context.SchedulerOptions?

  @inlinable
  internal init(downstream: Downstream, strategy: Publishers.TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?) {
    self.downstream = downstream
    self.options = options
    switch strategy {
    case .byTime(let scheduler, let interval):
      self.scheduler = scheduler
      self.interval = interval
      self.maximumCount = .max
    case .byTimeOrCount(let scheduler, let interval, let count):
      precondition(count > 0, "collect(.byTimeOrCount): the count must be greater than zero")
      self.scheduler = scheduler
      self.interval = interval
      self.maximumCount = count
    }
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
    let first = scheduler.now.advanced(by: interval)
    let repeating = scheduler.schedule(
      after: first, interval: interval, tolerance: scheduler.minimumTolerance, options: options
    ) { [weak self] in self?.publish(onlyIfFull: false) }
    let keep = lock.withLock { () -> Bool in
      guard status.subscription != nil else { return false }
      timer = repeating
      return true
    }
    if !keep { repeating.cancel() }
    target.receive(subscription: self)
    subscription.request(.unlimited)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    let isFull = lock.withLock { () -> Bool in
      guard status.subscription != nil else { return false }
      buffer.append(input)
      return buffer.count >= maximumCount
    }
    if isFull { publish(onlyIfFull: true) }
    return .none
  }

  /// Sends the buffer (or, for a full buffer, its first `maximumCount` values) if there is
  /// demand.
  ///
  /// Full batches are sent from upstream's thread and timed ones from the scheduler's, so
  /// one thread at a time delivers (`isDelivering`): a thread that finds delivery taken
  /// leaves a note (`pendingPublish`) and the delivering thread publishes again, and sends
  /// a completion that arrived meanwhile, once its `receive` returned.
  @inlinable
  internal func publish(onlyIfFull: Bool) {
    var onlyIfFull = onlyIfFull
    while true {
      let delivery = lock.withLock { () -> (Downstream, [Input])? in
        guard status.subscription != nil, let downstream else { return nil }
        if isDelivering {
          pendingPublish = pendingPublish.map { $0 && onlyIfFull } ?? onlyIfFull
          return nil
        }
        guard demand > 0, !buffer.isEmpty else { return nil }
        if onlyIfFull && buffer.count < maximumCount { return nil }
        let batch: [Input]
        if buffer.count > maximumCount {
          batch = Array(buffer.prefix(maximumCount))
          buffer.removeFirst(maximumCount)
        } else {
          batch = buffer
          buffer = []
        }
        demand -= 1
        isDelivering = true
        return (downstream, batch)
      }
      guard let (target, batch) = delivery else { return }
      let more = target.receive(batch)
      let next = lock.withLock { () -> AfterDelivery in
        isDelivering = false
        if let completion = pendingCompletion {
          pendingCompletion = nil
          var last: [Input] = []
          if case .finished = completion, demand + more > 0 { last = buffer }
          buffer = []
          downstream = nil
          return .complete(completion, last)
        }
        demand += more
        if let pending = pendingPublish {
          pendingPublish = nil
          return .publishAgain(onlyIfFull: pending)
        }
        return buffer.count >= maximumCount && demand > 0 ? .publishAgain(onlyIfFull: true) : .done
      }
      switch next {
      case .done:
        return
      case .publishAgain(let onlyFull):
        onlyIfFull = onlyFull
      case .complete(let completion, let last):
        finish(target, last: last, completion: completion)
        return
      }
    }
  }

  /// What the delivering thread does after handing over a batch.
  @usableFromInline
  internal enum AfterDelivery {
    case done
    case publishAgain(onlyIfFull: Bool)
    case complete(Subscribers.Completion<Failure>, [Input])
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    let ending = lock.withLock { () -> (Downstream?, [Input], Cancellable?)? in
      guard status.terminate() != nil, downstream != nil else { return nil }
      let stopping = timer
      timer = nil
      if isDelivering {
        // The delivering thread sends the last batch and the completion.
        pendingCompletion = completion
        return (nil, [], stopping)
      }
      defer {
        self.downstream = nil
        buffer = []
      }
      var last: [Input] = []
      if case .finished = completion, demand > 0 { last = buffer }
      return (downstream, last, stopping)
    }
    guard let (target, last, timer) = ending else { return }
    timer?.cancel()
    guard let target else { return }
    finish(target, last: last, completion: completion)
  }

  /// Sends the last batch (if any) and then the completion — unless downstream cancelled
  /// while it received the batch: nothing reaches a subscriber after its cancel.
  @inlinable
  internal func finish(_ target: Downstream, last: [Input], completion: Subscribers.Completion<Failure>) {
    if !last.isEmpty {
      _ = target.receive(last)
      if lock.withLock({ isCancelled }) { return }
    }
    target.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    let flush = lock.withLock { () -> Bool in
      self.demand += demand
      return buffer.count >= maximumCount
    }
    if flush { publish(onlyIfFull: true) }
  }

  @inlinable
  internal func cancel() {
    let (subscription, timer, released) = lock.withLock { () -> (Subscription?, Cancellable?, Downstream?) in
      defer {
        downstream = nil
        buffer = []
        self.timer = nil
        isCancelled = true
      }
      return (status.terminate(), self.timer, downstream)
    }
    timer?.cancel()
    subscription?.cancel()
    withExtendedLifetime(released) {}
  }

  @usableFromInline internal var description: String { "CollectByTime" }

  @usableFromInline internal var customMirror: Mirror {
    Mirror(self, children: ["downstream": downstream as Any, "interval": interval, "scheduler": scheduler])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}
