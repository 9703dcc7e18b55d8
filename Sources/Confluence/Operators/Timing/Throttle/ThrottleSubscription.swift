/// Stands between upstream and downstream for `Throttle`; shown as `Throttle` by `print`.
///
/// The storage of a ``ThrottleStateMachine``: each event takes the lock, asks the machine,
/// releases the lock, then performs the action (downstream, upstream and the scheduler are
/// never called with the lock held).
///
/// The scheduler is asked for `now` as Apple's throttle asks it (the conformance suite
/// records each call): once when the subscription object is created, once when upstream's
/// subscription arrives, once per value that still counts (not before the subscription,
/// nor after the completion or a cancel) and once per scheduled emission. A value emitted
/// as soon as possible, and a completion scheduled on its own, use `schedule(options:)`; a
/// value waiting for the end of its window uses `schedule(after:tolerance:options:)` with
/// the scheduler's `minimumTolerance`. A value that finds no outstanding demand schedules
/// nothing.
@usableFromInline
internal final class ThrottleSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure
  @usableFromInline internal typealias Machine = ThrottleStateMachine<Downstream, Context>

  @usableFromInline internal let lock = Lock()
  /// Guarded by `lock`.
  @usableFromInline internal var machine: Machine
  @usableFromInline internal let scheduler: Context

  @inlinable
  internal init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
    machine = Machine(downstream: downstream, interval: interval, latest: latest)
    self.scheduler = scheduler
    // Apple's throttle reads the clock as its subscriber is made; a scheduler that counts
    // or logs its calls sees it. The reading decides nothing: the first value is emitted as
    // soon as possible whatever the clock said.
    _ = scheduler.now
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    switch lock.withLock({ machine.upstreamSubscribed(subscription) }) {
    case .cancelSubscription:
      subscription.cancel()
    case .sendSubscriptionDownstreamAndRequestUnlimited(let downstream):
      // Read again as the subscription arrives, as Apple's does (nothing depends on it).
      _ = scheduler.now
      downstream.receive(subscription: self)
      subscription.request(.unlimited)
    }
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    // The scheduler is not asked for the time for a value that does not count.
    guard lock.withLock({ machine.acceptsUpstreamEvents }) else { return .none }
    let now = scheduler.now
    switch lock.withLock({ machine.valueArrived(input, at: now) }) {
    case .none:
      break
    case .scheduleEmissionNow:
      scheduler.schedule(options: nil) { self.emit() }
    case .scheduleEmission(let due):
      scheduler.schedule(after: due, tolerance: scheduler.minimumTolerance, options: nil) { self.emit() }
    }
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    switch lock.withLock({ machine.upstreamCompleted(completion) }) {
    case .none:
      break
    case .scheduleCompletion:
      scheduler.schedule(options: nil) { self.perform(self.lock.withLock { self.machine.completionDue() }) }
    }
  }

  /// A scheduled emission runs.
  @inlinable
  internal func emit() {
    let now = scheduler.now
    perform(lock.withLock { machine.emissionDue(at: now) })
  }

  @inlinable
  internal func perform(_ action: Machine.EmissionAction) {
    switch action {
    case .none:
      break
    case .deliver(let downstream, let value, let completion):
      let more = downstream.receive(value)
      if more > .none { lock.withLock { machine.downstreamRequested(more) } }
      if let completion, lock.withLock({ machine.shouldCompleteAfterValue() }) {
        downstream.receive(completion: completion)
      }
    case .complete(let downstream, let completion):
      downstream.receive(completion: completion)
    }
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    // As `debounce`: the demand is counted (`.none` included, without a trap); it schedules
    // nothing.
    lock.withLock { machine.downstreamRequested(demand) }
  }

  @inlinable
  internal func cancel() {
    let (subscription, released) = lock.withLock { machine.cancelled() }
    subscription?.cancel()
    _fixLifetime(released)
  }

  @usableFromInline internal var description: String { "Throttle" }

  /// Apple's throttle subscription shows no children.
  @usableFromInline internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline internal var playgroundDescription: Any { description }
}
