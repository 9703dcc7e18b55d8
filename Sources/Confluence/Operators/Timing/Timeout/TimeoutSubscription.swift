#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Stands between upstream and downstream for `Timeout`; shown as `Timeout` by `print`.
///
/// Thin storage around ``TimeoutStateMachine``: each event takes the lock, asks the machine,
/// releases the lock, then performs the action (arming a timer, scheduling a delivery,
/// calling downstream or upstream). Each arming of the clock gets a ticket; a timer fires
/// only if its ticket is still the latest. Completion and timeout drop the downstream
/// subscriber and `customError` at once.
@usableFromInline
internal final class TimeoutSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline internal let lock = Lock()
  /// Guarded by `lock`.
  @usableFromInline internal var machine: TimeoutStateMachine<Downstream>
  @usableFromInline internal let interval: Context.SchedulerTimeType.Stride
  @usableFromInline internal let scheduler: Context
  @usableFromInline internal let options: Context.SchedulerOptions?

  @inlinable
  internal init(
    downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
    options: Context.SchedulerOptions?, customError: (() -> Failure)?
  ) {
    self.machine = TimeoutStateMachine(downstream: downstream, customError: customError)
    self.interval = interval
    self.scheduler = scheduler
    self.options = options
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    let current = pthread_self()
    switch lock.withLock({ machine.upstreamSubscribed(subscription, on: current) }) {
    case .cancelSubscription:
      subscription.cancel()
    case .armTimerAndSubscribe(let downstream):
      armTimer(ticket: 0)
      downstream.receive(subscription: self)
    }
  }

  /// Arms the timer for `ticket`, replacing the previous one. As Apple's: a repeating
  /// schedule (`schedule(after: now + interval, interval: interval, tolerance:
  /// minimumTolerance, options:)`), stopped when it fires or the subscription ends.
  @inlinable
  internal func armTimer(ticket: Int) {
    let due = scheduler.now.advanced(by: interval)
    let armed = scheduler.schedule(
      after: due, interval: interval, tolerance: scheduler.minimumTolerance, options: options
    ) {
      // Strong, as Apple's: an armed timer keeps the subscription (and its downstream)
      // alive; cancelling the timer lets go.
      self.timerFired(ticket)
    }
    lock.withLock { machine.timerArmed(armed) }?.cancel()
  }

  @inlinable
  internal func timerFired(_ ticket: Int) {
    let current = pthread_self()
    guard
      case .timeOut(let downstream, let upstream, let timer, let makeError) =
        lock.withLock({ machine.timerFired(ticket: ticket, on: current) })
    else { return }
    timer?.cancel()
    upstream.cancel()
    downstream.receive(completion: makeError.map { .failure($0()) } ?? .finished)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    let current = pthread_self()
    guard let ticket = lock.withLock({ machine.valueArrived(on: current) }) else { return .none }
    armTimer(ticket: ticket)
    scheduler.schedule(options: options) { self.deliver(input) }
    return .none
  }

  @inlinable
  internal func deliver(_ input: Input) {
    guard let downstream = lock.withLock({ machine.deliveryTarget() }) else { return }
    let more = downstream.receive(input)
    guard more > 0 else { return }
    lock.withLock { machine.upstream }?.request(more)
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    guard lock.withLock({ machine.upstreamCompleted() }) else { return }
    scheduler.schedule(options: options) { self.deliver(completion) }
  }

  @inlinable
  internal func deliver(_ completion: Subscribers.Completion<Failure>) {
    guard case .complete(let downstream, let timer) = lock.withLock({ machine.completionDue() }) else { return }
    timer?.cancel()
    downstream?.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    // As Apple's: the demand, `.none` included, goes upstream unchecked, and the first
    // request arms the timer again.
    let current = pthread_self()
    let action = lock.withLock { machine.downstreamRequested(on: current) }
    if let rearm = action.rearm { armTimer(ticket: rearm) }
    action.upstream?.request(demand)
  }

  @inlinable
  internal func cancel() {
    // As Apple's: the subscription keeps its downstream after a cancel (an action still
    // queued on the scheduler keeps both alive until it has run).
    let (upstream, timer) = lock.withLock { machine.cancelled() }
    timer?.cancel()
    upstream?.cancel()
  }

  @usableFromInline internal var description: String { "Timeout" }

  /// No children, as Apple's.
  @usableFromInline internal var customMirror: Mirror {
    Mirror(self, children: [:])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}
