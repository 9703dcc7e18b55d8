/// Which of the two operators an ``UntilOutputSubscription`` implements.
@usableFromInline
internal enum UntilOutputMode {
  /// `drop(untilOutputFrom:)`: values pass only after the trigger fired.
  case drop
  /// `prefix(untilOutputFrom:)`: values pass until the trigger fires, which finishes.
  case prefix
}

/// The storage and driver of `drop(untilOutputFrom:)` (`DropUntilOutput`) and
/// `prefix(untilOutputFrom:)` (`PrefixUntilOutput`).
@usableFromInline
internal final class UntilOutputSubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  @usableFromInline internal typealias Input = Upstream.Output
  @usableFromInline internal typealias Failure = Upstream.Failure
  @usableFromInline internal typealias State = UntilOutputState<Downstream>

  @usableFromInline internal let lock = Lock()
  /// Guarded by `lock`.
  @usableFromInline internal var state: State
  @usableFromInline internal let mode: UntilOutputMode

  @inlinable
  internal init(downstream: Downstream, mode: UntilOutputMode) {
    state = State(downstream: downstream)
    self.mode = mode
  }

  /// Sends this subscription downstream, then subscribes to the trigger and to upstream.
  @inlinable
  internal func start<Other: Publisher>(upstream: Upstream, trigger: Other, forwardsTriggerFailure: Bool) {
    lock.withLock { state.downstream }?.receive(subscription: self)
    trigger.subscribe(UntilOutputTrigger<Other, Upstream, Downstream>(parent: self, forwardsFailure: forwardsTriggerFailure))
    upstream.subscribe(self)
  }

  // MARK: Upstream

  @inlinable
  internal func receive(subscription: Subscription) {
    guard let owed = lock.withLock({ state.upstreamSubscribed(subscription) }) else {
      subscription.cancel()
      return
    }
    if owed > 0 { subscription.request(owed) }
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    let next = lock.withLock { state.value(input, passes: (mode == .drop) == state.hasTriggered) }
    switch next {
    case .replace:
      return .max(1)
    case .deliver(let downstream, let value):
      let more = downstream.receive(value)
      perform(lock.withLock { state.didDeliver() })
      return more
    default:
      perform(next)
      return .none
    }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    perform(lock.withLock { state.complete(completion) })
  }

  // MARK: Trigger

  @inlinable
  internal func triggerSubscribed(_ subscription: Subscription) {
    if lock.withLock({ state.triggerSubscribed(subscription) }) {
      subscription.request(.max(1))
    } else {
      subscription.cancel()
    }
  }

  @inlinable
  internal func triggerFired() {
    guard let trigger = lock.withLock({ state.fire() }) else { return }
    trigger.cancel()
    if mode == .prefix {
      perform(lock.withLock { state.complete(.finished) })
    }
  }

  @inlinable
  internal func triggerFailed(_ error: Failure) {
    perform(lock.withLock { state.complete(.failure(error)) })
  }

  // MARK: Downstream

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    // As Apple's: `.none` is accepted (it adds nothing), not trapped.
    lock.withLock { state.request(demand) }?.request(demand)
  }

  @inlinable
  internal func cancel() {
    for subscription in lock.withLock({ state.cancel() }) { subscription.cancel() }
  }

  @inlinable
  internal func perform(_ next: State.Next) {
    switch next {
    case .idle, .replace, .deliver:
      return
    case .cancel(let subscriptions):
      for subscription in subscriptions { subscription.cancel() }
    case .complete(let downstream, let completion, let subscriptions):
      for subscription in subscriptions { subscription.cancel() }
      downstream.receive(completion: completion)
    }
  }

  @usableFromInline
  internal var description: String { mode == .drop ? "DropUntilOutput" : "PrefixUntilOutput" }

  @usableFromInline
  internal var customMirror: Mirror {
    Mirror(self, children: ["triggered": lock.withLock { state.hasTriggered }])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}

/// Subscribes to the trigger publisher on behalf of ``UntilOutputSubscription``.
@usableFromInline
internal struct UntilOutputTrigger<Other: Publisher, Upstream: Publisher, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  @usableFromInline internal typealias Input = Other.Output
  @usableFromInline internal typealias Failure = Other.Failure

  @usableFromInline internal let parent: UntilOutputSubscription<Upstream, Downstream>
  @usableFromInline internal let forwardsFailure: Bool
  @usableFromInline internal let combineIdentifier = CombineIdentifier()

  @inlinable
  internal init(parent: UntilOutputSubscription<Upstream, Downstream>, forwardsFailure: Bool) {
    self.parent = parent
    self.forwardsFailure = forwardsFailure
  }

  @inlinable
  internal func receive(subscription: Subscription) { parent.triggerSubscribed(subscription) }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    parent.triggerFired()
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    // A trigger that finishes without output changes nothing. Its failure fails the
    // pipeline only for drop(untilOutputFrom:), whose trigger shares upstream's Failure.
    if forwardsFailure, case .failure(let error) = completion, let error = error as? Upstream.Failure {
      parent.triggerFailed(error)
    }
  }

  @usableFromInline internal var description: String { parent.description }
}
