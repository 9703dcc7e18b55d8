import Confluence

/// The subscription of ``Publishers/DelayedRetry``; shown as `DelayedRetry` by `print`.
///
/// It subscribes itself to upstream once per attempt and hands itself downstream on the
/// first upstream subscription. `outstanding` — demand requested and not yet delivered — is
/// kept under `lock` and asked of each new attempt. Between attempts the phase is
/// `.waiting`; the scheduled action holds this object and resubscribes only if it still
/// finds `.waiting`. Downstream is released at completion and at cancel, so a pending action
/// keeps nothing but this object alive.
@usableFromInline
internal final class DelayedRetrySubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  @usableFromInline internal typealias Input = Upstream.Output
  @usableFromInline internal typealias Failure = Upstream.Failure

  @usableFromInline
  internal enum Phase {
    /// Subscribing to upstream; its subscription has not arrived yet.
    case subscribing
    case subscribed(Subscription)
    /// Waiting on the scheduler for the next attempt.
    case waiting
    /// Completed or cancelled.
    case done
  }

  @usableFromInline
  internal enum SubscriptionAction {
    case cancel
    case subscribeDownstream(Downstream)
    case request(Subscribers.Demand)
  }

  @usableFromInline
  internal enum FailureAction {
    case ignore
    case fail(Downstream?)
    case retry(Int)
  }

  @usableFromInline internal let upstream: Upstream
  @usableFromInline internal let retries: Int
  @usableFromInline internal let delay: (Int) -> Context.SchedulerTimeType.Stride
  @usableFromInline internal let scheduler: Context
  @usableFromInline internal let options: Context.SchedulerOptions?

  @usableFromInline internal let lock = Lock()

  // Guarded by `lock`.
  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var phase = Phase.subscribing
  @usableFromInline internal var retriesMade = 0
  @usableFromInline internal var outstanding = Subscribers.Demand.none
  @usableFromInline internal var hasSubscribedDownstream = false

  @inlinable
  internal init(
    upstream: Upstream, retries: Int, delay: @escaping (Int) -> Context.SchedulerTimeType.Stride, scheduler: Context,
    options: Context.SchedulerOptions?, downstream: Downstream
  ) {
    self.upstream = upstream
    self.retries = retries
    self.delay = delay
    self.scheduler = scheduler
    self.options = options
    self.downstream = downstream
  }

  @inlinable
  internal func subscribeUpstream() {
    upstream.subscribe(self)
  }

  /// Runs on the scheduler when a wait is over.
  @inlinable
  internal func resubscribe() {
    let proceeds = lock.withLock { () -> Bool in
      guard case .waiting = phase else { return false }
      phase = .subscribing
      return true
    }
    if proceeds {
      upstream.subscribe(self)
    }
  }

  // MARK: Subscriber

  @inlinable
  internal func receive(subscription: Subscription) {
    let action = lock.withLock { () -> SubscriptionAction in
      guard case .subscribing = phase, let downstream else { return .cancel }
      phase = .subscribed(subscription)
      if !hasSubscribedDownstream {
        hasSubscribedDownstream = true
        return .subscribeDownstream(downstream)
      }
      return .request(outstanding)
    }
    switch action {
    case .cancel:
      subscription.cancel()
    case .subscribeDownstream(let downstream):
      downstream.receive(subscription: self)
    case .request(let demand):
      if demand > 0 {
        subscription.request(demand)
      }
    }
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    let target = lock.withLock { () -> Downstream? in
      guard case .subscribed = phase else { return nil }
      // As Apple's `retry(_:)`: a value nobody asked for is a broken contract.
      confluencePrecondition(
        outstanding > .none, "retry(_:delay:scheduler:): the upstream sent a value it was not asked for")
      outstanding -= 1
      return downstream
    }
    guard let target else { return .none }
    let more = target.receive(input)
    if more > 0 {
      lock.withLock { outstanding += more }
    }
    return more
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    let action = lock.withLock { () -> FailureAction in
      guard case .subscribed = phase else { return .ignore }
      if case .failure = completion, retriesMade < retries {
        retriesMade += 1
        phase = .waiting
        return .retry(retriesMade)
      }
      phase = .done
      defer { downstream = nil }
      return .fail(downstream)
    }
    switch action {
    case .ignore:
      break
    case .fail(let downstream):
      downstream?.receive(completion: completion)
    case .retry(let retry):
      let due = scheduler.now.advanced(by: delay(retry))
      scheduler.schedule(after: due, tolerance: scheduler.minimumTolerance, options: options) {
        self.resubscribe()
      }
    }
  }

  // MARK: Subscription

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    let target = lock.withLock { () -> Subscription? in
      switch phase {
      case .done:
        return nil
      case .subscribed(let subscription):
        outstanding += demand
        return subscription
      case .subscribing, .waiting:
        outstanding += demand
        return nil
      }
    }
    target?.request(demand)
  }

  @inlinable
  internal func cancel() {
    let (target, released) = lock.withLock { () -> (Subscription?, Downstream?) in
      defer {
        phase = .done
        downstream = nil
      }
      if case .subscribed(let subscription) = phase { return (subscription, downstream) }
      return (nil, downstream)
    }
    target?.cancel()
    withExtendedLifetime(released) {}
  }

  @usableFromInline internal var description: String { "DelayedRetry" }

  @usableFromInline internal var customMirror: Mirror {
    let (made, outstanding) = lock.withLock { (retriesMade, self.outstanding) }
    return Mirror(self, children: ["retries": retries, "retriesMade": made, "outstanding": outstanding])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}
