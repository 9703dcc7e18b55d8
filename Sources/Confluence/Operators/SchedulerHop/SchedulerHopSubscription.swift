/// Stands between upstream and downstream for `receive(on:)` and `delay(for:…)`: every value
/// and the completion reach downstream through `Hop`'s scheduler, while demand and cancel
/// pass upstream synchronously.
///
/// Apple's edges, kept here:
/// - a scheduled action holds this subscription, and so the downstream subscriber, strongly
///   until it has run; the subscription holds its downstream for its whole life (neither
///   cancel nor the completion lets go of it);
/// - once the completion has arrived, or after `cancel()`, nothing more is scheduled;
/// - a value whose action runs after `cancel()` is dropped, but a completion that was
///   already scheduled is still delivered;
/// - `cancel()` before the upstream subscription arrives is ignored.
@usableFromInline
internal final class SchedulerHopSubscription<Downstream: Subscriber, Hop: SchedulerHop>: Subscriber, Subscription {
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline internal let lock = Lock()
  @usableFromInline internal let downstream: Downstream
  @usableFromInline internal let hop: Hop
  /// Guarded by `lock`. (`@exclusivity(unchecked)`: the lock already serialises every
  /// access, so the runtime's exclusivity bookkeeping — a thread-local access set, several
  /// times per value on both threads — would only cost time.)
  @exclusivity(unchecked) @usableFromInline internal var state = SchedulerHopState<Input, Failure>()

  @inlinable
  internal init(downstream: Downstream, hop: Hop) {
    self.downstream = downstream
    self.hop = hop
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    guard lock.withLock({ state.accept(subscription) }) else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  // One action is scheduled per event taken; see `SchedulerHopState` for which event an
  // action delivers. The action captures only `self`, so forming it allocates nothing.

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ state.take(input) }) else { return .none }
    hop.schedule { self.runScheduledAction() }
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    guard lock.withLock({ state.take(completion) }) else { return }
    hop.schedule { self.runScheduledAction() }
  }

  /// A scheduled action: delivers the oldest queued event and any that actions running
  /// meanwhile left to it, or, if another action is delivering, leaves its event to that one.
  @inlinable
  internal func runScheduledAction() {
    var next = lock.withLock { state.actionStarts() }
    while let (event, isDropped) = next {
      if !isDropped {
        switch event {
        case .value(let input): deliver(input)
        case .completion(let completion):
          // Lets go of upstream (without cancelling it): no cycle through a subject's conduit.
          withExtendedLifetime(lock.withLock { state.status.take() }) {}
          downstream.receive(completion: completion)
        }
      }
      next = lock.withLock { state.deliveryEnds() }
    }
  }

  @inlinable
  internal func deliver(_ input: Input) {
    let more = downstream.receive(input)
    guard more > 0 else { return }
    lock.withLock { state.status.subscription }?.request(more)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    // As Apple's (receive(on:), delay): the demand, `.none` included, goes upstream unchecked.
    lock.withLock { state.status.subscription }?.request(demand)
  }

  @inlinable
  internal func cancel() {
    lock.withLock { state.cancel() }?.cancel()
  }
}

/// A hop whose subscription describes itself (`receive(on:)`'s does; `delay`'s does not).
@usableFromInline
internal protocol DescribedSchedulerHop: SchedulerHop {}

extension SchedulerHopSubscription: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Hop: DescribedSchedulerHop {
  @usableFromInline internal var description: String { Hop.name }

  /// As Apple's: no children.
  @usableFromInline internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline internal var playgroundDescription: Any { description }
}
