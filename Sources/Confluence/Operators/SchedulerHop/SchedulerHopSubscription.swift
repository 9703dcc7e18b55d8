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
  // Guarded by `lock`.
  /// `.terminal` after `cancel()` or once the completion has been delivered (the upstream
  /// subscription is released then; until then demand still goes upstream, as Apple's).
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  /// Whether upstream's completion has arrived: nothing more is scheduled.
  @usableFromInline internal var isUpstreamDone = false
  /// Whether `cancel()` came after the subscription: queued values are dropped.
  @usableFromInline internal var isCancelled = false
  /// Events received and not yet delivered, oldest first: one per scheduled action still
  /// to run, plus `owed` ones whose actions ran while another was delivering.
  @usableFromInline internal var pending = FIFOQueue<Event>()
  /// Whether a scheduled action is inside downstream right now.
  @usableFromInline internal var isDelivering = false
  /// Actions that ran while another was delivering: that one delivers their events after
  /// its own, in order.
  @usableFromInline internal var owed = 0
  @usableFromInline internal let hop: Hop

  /// A value or the completion, waiting for its scheduled action.
  @usableFromInline
  internal enum Event {
    case value(Input)
    case completion(Subscribers.Completion<Failure>)
  }

  @inlinable
  internal init(downstream: Downstream, hop: Hop) {
    self.downstream = downstream
    self.hop = hop
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    guard lock.withLock({ status.accept(subscription) }) else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  // Each event is queued and an action scheduled for it; an action delivers the *oldest*
  // queued event, and only one action is inside downstream at a time. On a serial
  // scheduler this is the plain order; on a concurrent one (a concurrent DispatchQueue)
  // it keeps the events in order and never overlaps two deliveries — a completion can
  // neither overtake the value before it nor arrive during it.

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    guard
      lock.withLock({ () -> Bool in
        guard case .subscribed = status, !isUpstreamDone else { return false }
        pending.append(.value(input))
        return true
      })
    else { return .none }
    hop.schedule { self.runScheduledAction() }
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    guard
      lock.withLock({ () -> Bool in
        guard case .subscribed = status, !isUpstreamDone else { return false }
        isUpstreamDone = true
        pending.append(.completion(completion))
        return true
      })
    else { return }
    hop.schedule { self.runScheduledAction() }
  }

  /// A scheduled action: delivers the oldest queued event, or, if another action is
  /// delivering, leaves that to it.
  @inlinable
  internal func runScheduledAction() {
    var next = lock.withLock { () -> Event? in
      if isDelivering {
        owed += 1
        return nil
      }
      guard let event = pending.popFirst() else { return nil }
      isDelivering = true
      return event
    }
    while let event = next {
      switch event {
      case .value(let input): deliver(input)
      case .completion(let completion):
        // Lets go of upstream (without cancelling it): no cycle through a subject's conduit.
        withExtendedLifetime(lock.withLock { status.take() }) {}
        downstream.receive(completion: completion)
      }
      next = lock.withLock { () -> Event? in
        if owed > 0, let event = pending.popFirst() {
          owed -= 1
          return event
        }
        owed = 0
        isDelivering = false
        return nil
      }
    }
  }

  @inlinable
  internal func deliver(_ input: Input) {
    guard !lock.withLock({ isCancelled }) else { return }
    let more = downstream.receive(input)
    guard more > 0 else { return }
    lock.withLock { status.subscription }?.request(more)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    // As Apple's (receive(on:), delay): the demand, `.none` included, goes upstream unchecked.
    lock.withLock { status.subscription }?.request(demand)
  }

  @inlinable
  internal func cancel() {
    let subscription = lock.withLock { () -> Subscription? in
      // Before the subscription Apple ignores a cancel; the subscription is then taken as usual.
      if case .awaitingSubscription = status { return nil }
      isCancelled = true
      return status.terminate()
    }
    subscription?.cancel()
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
