/// The subscription of ``Publishers/Retry``; shown as `Retry` by `print`.
///
/// Thin storage around ``RetryStateMachine``: each event takes the lock, asks the machine,
/// releases the lock, then performs the action. It subscribes itself to upstream once per
/// attempt and hands itself downstream on the first upstream subscription. Attempts started
/// while a subscribe call is still on the stack (an upstream that fails synchronously) are
/// run by that call's loop, so the stack stays flat.
@usableFromInline
internal final class RetrySubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  @usableFromInline internal typealias Input = Upstream.Output
  @usableFromInline internal typealias Failure = Upstream.Failure

  @usableFromInline internal let upstream: Upstream

  @usableFromInline internal let lock = Lock()

  /// Guarded by `lock`.
  @usableFromInline internal var machine: RetryStateMachine<Downstream>

  @inlinable
  internal init(upstream: Upstream, retries: Int?, downstream: Downstream) {
    self.upstream = upstream
    self.machine = RetryStateMachine(downstream: downstream, retries: retries)
  }

  /// Runs a transition under the lock.
  @inlinable
  internal func withMachine<Action>(_ transition: (inout RetryStateMachine<Downstream>) -> Action) -> Action {
    lock.withLock { transition(&machine) }
  }

  /// Subscribes to upstream, again and again while attempts fail during the subscribe call.
  @inlinable
  internal func subscribeUpstream() {
    while true {
      lock.withLock { machine.subscribeCallStarted() }
      upstream.subscribe(self)
      guard lock.withLock({ machine.subscribeCallEnded() }) else { return }
    }
  }

  // MARK: Subscriber

  @inlinable
  internal func receive(subscription: Subscription) {
    switch withMachine({ $0.attemptSubscribed(subscription) }) {
    case .cancelSubscription:
      subscription.cancel()
    case .subscribeDownstream(let downstream):
      downstream.receive(subscription: self)
    case .requestFromAttempt(let demand):
      if demand > 0 {
        subscription.request(demand)
      }
    }
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    let downstream: Downstream
    switch withMachine({ $0.valueArrived() }) {
    case .deliver(let receiver): downstream = receiver
    case .ignore: return .none
    case .trapBeforeSubscription:
      confluencePreconditionFailure("Retry: received a value before the upstream subscription")
    }
    let more = downstream.receive(input)
    // As Apple's: downstream's further demand is requested from the current attempt, not
    // returned (between attempts it is carried to the next one).
    if more > 0 {
      lock.withLock { machine.downstreamReturned(more) }?.request(more)
    }
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    guard case .failure = completion else {
      if case .finish(let downstream) = withMachine({ $0.upstreamFinished() }) {
        downstream.receive(completion: completion)
      }
      return
    }
    switch withMachine({ $0.upstreamFailed() }) {
    case .ignore: break
    case .fail(let downstream): downstream.receive(completion: completion)
    case .resubscribe: subscribeUpstream()
    }
  }

  // MARK: Subscription

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    lock.withLock { machine.downstreamRequested(demand) }?.request(demand)
  }

  @inlinable
  internal func cancel() {
    withMachine { $0.cancelled() }?.cancel()
  }

  @usableFromInline
  internal var description: String { "Retry" }

  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
