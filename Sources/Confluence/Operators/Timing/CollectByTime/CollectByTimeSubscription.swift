/// Stands between upstream and downstream for `CollectByTime`; shown as `CollectByTime`.
///
/// Thin storage around ``CollectByTimeStateMachine``: each event takes the lock, asks the
/// machine, releases the lock, then performs the action (scheduling the repeating timer,
/// delivering a batch, completing). Cancel and completion cancel the timer and drop the
/// buffer and the downstream subscriber.
@usableFromInline
internal final class CollectByTimeSubscription<Input, Downstream: Subscriber, Context: Scheduler>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == [Input] {
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline internal let lock = Lock()
  /// Guarded by `lock`.
  @usableFromInline internal var machine: CollectByTimeStateMachine<Input, Downstream>
  @usableFromInline internal let scheduler: Context
  @usableFromInline internal let interval: Context.SchedulerTimeType.Stride
  @usableFromInline internal let options: Context.SchedulerOptions?

  @inlinable
  internal init(
    downstream: Downstream, strategy: Publishers.TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?
  ) {
    self.options = options
    switch strategy {
    case .byTime(let scheduler, let interval):
      self.scheduler = scheduler
      self.interval = interval
      self.machine = CollectByTimeStateMachine(downstream: downstream, maximumCount: .max)
    case .byTimeOrCount(let scheduler, let interval, let count):
      confluencePrecondition(count > 0, "collect(.byTimeOrCount): the count must be greater than zero")
      self.scheduler = scheduler
      self.interval = interval
      self.machine = CollectByTimeStateMachine(downstream: downstream, maximumCount: count)
    }
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    guard let downstream = lock.withLock({ machine.upstreamSubscribed(subscription) }) else {
      subscription.cancel()
      return
    }
    let first = scheduler.now.advanced(by: interval)
    let repeating = scheduler.schedule(
      after: first, interval: interval, tolerance: scheduler.minimumTolerance, options: options
    ) { [weak self] in self?.publish(onlyIfFull: false) }
    if !lock.withLock({ machine.timerScheduled(repeating) }) { repeating.cancel() }
    downstream.receive(subscription: self)
    subscription.request(.unlimited)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    if lock.withLock({ machine.valueArrived(input) }) { publish(onlyIfFull: true) }
    return .none
  }

  /// Sends the buffer (or, for a full buffer, its first `maximumCount` values) if there is
  /// demand, and keeps publishing while the machine asks for it.
  @inlinable
  internal func publish(onlyIfFull: Bool) {
    var onlyIfFull = onlyIfFull
    while true {
      guard case .deliver(let downstream, let batch) = lock.withLock({ machine.nextBatch(onlyIfFull: onlyIfFull) })
      else { return }
      let more = downstream.receive(batch)
      switch lock.withLock({ machine.batchDelivered(more: more) }) {
      case .done:
        return
      case .publishAgain(let onlyFull):
        onlyIfFull = onlyFull
      case .complete(let completion, let last):
        finish(downstream, last: last, completion: completion)
        return
      }
    }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    switch lock.withLock({ machine.upstreamCompleted(completion) }) {
    case .ignore:
      return
    case .stopTimer(let timer):
      timer?.cancel()
    case .finish(let downstream, let last, let timer):
      timer?.cancel()
      finish(downstream, last: last, completion: completion)
    }
  }

  /// Sends the last batch (if any) and then the completion — unless downstream cancelled
  /// while it received the batch: nothing reaches a subscriber after its cancel.
  @inlinable
  internal func finish(_ target: Downstream, last: [Input], completion: Subscribers.Completion<Failure>) {
    if !last.isEmpty {
      _ = target.receive(last)
      if lock.withLock({ machine.isCancelled }) { return }
    }
    target.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    if lock.withLock({ machine.downstreamRequested(demand) }) { publish(onlyIfFull: true) }
  }

  @inlinable
  internal func cancel() {
    let released = lock.withLock { machine.cancelled() }
    released.timer?.cancel()
    released.upstream?.cancel()
    _fixLifetime(released.downstream)
  }

  @usableFromInline internal var description: String { "CollectByTime" }

  @usableFromInline internal var customMirror: Mirror {
    Mirror(self, children: ["downstream": machine.downstream as Any, "interval": interval, "scheduler": scheduler])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}
