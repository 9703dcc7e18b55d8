/// Stands between upstream and downstream for `Debounce`; shown as `Debounce` by `print`.
///
/// The storage of a ``DebounceStateMachine``: each event takes the lock, asks the machine,
/// releases the lock, then performs the action (downstream, upstream, timers and the
/// scheduler are never called with the lock held). Cancel drops the waiting value and the
/// timer at once; timers still queued on the scheduler then hold only this small object
/// and the downstream, which Apple's keeps too.
@usableFromInline
internal final class DebounceSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure
  @usableFromInline internal typealias Machine = DebounceStateMachine<Downstream>

  @usableFromInline internal let lock = Lock()
  /// Guarded by `lock`.
  @usableFromInline internal var machine: Machine
  @usableFromInline internal let dueTime: Context.SchedulerTimeType.Stride
  @usableFromInline internal let scheduler: Context
  @usableFromInline internal let options: Context.SchedulerOptions?

  @inlinable
  internal init(
    downstream: Downstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
    options: Context.SchedulerOptions?
  ) {
    machine = Machine(downstream: downstream)
    self.dueTime = dueTime
    self.scheduler = scheduler
    self.options = options
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    switch lock.withLock({ machine.upstreamSubscribed(subscription) }) {
    case .cancelSubscription:
      subscription.cancel()
    case .sendSubscriptionDownstreamAndRequestUnlimited(let downstream):
      downstream.receive(subscription: self)
      subscription.request(.unlimited)
    }
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    // As Apple's: once finished or cancelled the scheduler is not asked for the time.
    guard let ticket = lock.withLock({ machine.valueArrived(input) }) else { return .none }
    let due = scheduler.now.advanced(by: dueTime)
    // As Apple's: a repeating schedule per value, replacing the previous one; it keeps
    // this subscription alive until cancelled (when it fires, is replaced, or the
    // subscription ends).
    let armed = scheduler.schedule(
      after: due, interval: dueTime, tolerance: scheduler.minimumTolerance, options: options
    ) {
      self.quietPeriodEnded(ticket)
    }
    lock.withLock { machine.timerArmed(armed) }?.cancel()
    return .none
  }

  @inlinable
  internal func quietPeriodEnded(_ ticket: Int) {
    switch lock.withLock({ machine.quietPeriodEnded(ticket: ticket) }) {
    case .none:
      break
    case .stopTimer(let timer):
      timer?.cancel()
    case .stopTimerAndDeliver(let timer, let downstream, let value):
      timer?.cancel()
      let more = downstream.receive(value)
      if more > .none { lock.withLock { machine.downstreamRequested(more) } }
    }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    guard lock.withLock({ machine.upstreamCompleted() }) else { return }
    // As Apple's: the completion is scheduled without the operator's options.
    scheduler.schedule(options: nil) { self.deliver(completion) }
  }

  @inlinable
  internal func deliver(_ completion: Subscribers.Completion<Failure>) {
    var timer: Cancellable?
    let downstream = lock.withLock { machine.completionDue(cancelling: &timer) }
    timer?.cancel()
    downstream?.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    lock.withLock { machine.downstreamRequested(demand) }
  }

  @inlinable
  internal func cancel() {
    let (subscription, timer, released) = lock.withLock { machine.cancelled() }
    timer?.cancel()
    subscription?.cancel()
    _fixLifetime(released)
  }

  @usableFromInline internal var description: String { "Debounce" }

  /// As Apple's: the downstream, its outstanding demand and the value waiting for quiet.
  @usableFromInline internal var customMirror: Mirror {
    let (downstream, demand, waiting) = lock.withLock { (machine.downstream, machine.demand, machine.waiting) }
    return Mirror(
      self, children: ["downstream": downstream as Any, "downstreamDemand": demand, "currentValue": waiting as Any])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}
