/// The rules of a ``SchedulerHopSubscription``, apart from its lock and its downstream:
/// which events are taken, which scheduled action delivers which event, and what a cancel
/// drops. Every method is a transition made under the subscription's lock; what they
/// return is acted on after the lock is released.
///
/// Each event taken is queued and one action scheduled for it; an action delivers the
/// *oldest* queued event, and only one action is inside downstream at a time (an action
/// that runs meanwhile leaves its event to the one delivering, as `owed`). On a serial
/// scheduler this is the plain order; on a concurrent one (a concurrent `DispatchQueue`)
/// it keeps the events in order and never overlaps two deliveries, so a completion can
/// neither overtake the value before it nor arrive during it.
@usableFromInline
internal struct SchedulerHopState<Input, Failure: Error> {
  /// A value or the completion, waiting for its scheduled action.
  @usableFromInline
  internal enum Event {
    case value(Input)
    case completion(Subscribers.Completion<Failure>)
  }

  /// `.terminal` after `cancel()` or once the completion has been delivered (the upstream
  /// subscription is released then; until then demand still goes upstream, as Apple's).
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  /// Subscribed, and neither upstream's completion nor a cancel has arrived: events are
  /// taken. (A flag of its own so that taking a value never copies `status`, whose
  /// existential payload would be retained and released through the runtime each time.)
  @usableFromInline internal var isTakingEvents = false
  /// Whether `cancel()` came after the subscription: queued values are dropped.
  @usableFromInline internal var isCancelled = false
  /// Events taken and not yet delivered, oldest first: one per scheduled action still to
  /// run, plus `owed` ones whose actions ran while another was delivering.
  @usableFromInline internal var pending = FIFOQueue<Event>()
  /// Whether a scheduled action is inside downstream right now.
  @usableFromInline internal var isDelivering = false
  /// Actions that ran while another was delivering: that one delivers their events after
  /// its own, in order.
  @usableFromInline internal var owed = 0

  @inlinable
  internal init() {}

  /// Takes the upstream subscription if none has arrived. `false`: the caller cancels it.
  @inlinable
  internal mutating func accept(_ subscription: Subscription) -> Bool {
    guard status.accept(subscription) else { return false }
    isTakingEvents = true
    return true
  }

  /// Queues a value. `false`: it is ignored (completed, cancelled, or not subscribed), and
  /// nothing is scheduled for it.
  @inlinable
  internal mutating func take(_ input: Input) -> Bool {
    guard isTakingEvents else { return false }
    pending.append(.value(input))
    return true
  }

  /// Queues the completion; nothing is taken after it. `false`: it is ignored.
  @inlinable
  internal mutating func take(_ completion: Subscribers.Completion<Failure>) -> Bool {
    guard isTakingEvents else { return false }
    isTakingEvents = false
    pending.append(.completion(completion))
    return true
  }

  /// A scheduled action starts: the event it is to deliver (it now owns delivery), or
  /// `nil` if another action is delivering (which will deliver this one's event too).
  ///
  /// `isDropped` is set for a value that arrives after `cancel()`: the action goes on as if
  /// it had delivered it, and releases it outside the lock.
  @inlinable
  internal mutating func actionStarts() -> (event: Event, isDropped: Bool)? {
    if isDelivering {
      owed += 1
      return nil
    }
    guard let event = pending.popFirst() else { return nil }
    isDelivering = true
    return (event, isDropped(event))
  }

  /// The action that owns delivery is done with an event: the next one it owes, or `nil`
  /// once it owes none (delivery is then free for the next action).
  @inlinable
  internal mutating func deliveryEnds() -> (event: Event, isDropped: Bool)? {
    if owed > 0, let event = pending.popFirst() {
      owed -= 1
      return (event, isDropped(event))
    }
    owed = 0
    isDelivering = false
    return nil
  }

  /// A value after `cancel()` is not delivered; a completion already taken still is.
  @inlinable
  internal func isDropped(_ event: Event) -> Bool {
    guard isCancelled, case .value = event else { return false }
    return true
  }

  /// `cancel()`: nothing more is taken, queued values are dropped, and the upstream
  /// subscription (returned, to be cancelled outside the lock) is let go. Before the
  /// subscription, Apple ignores a cancel: returns `nil` and changes nothing, so the
  /// subscription is then taken as usual.
  @inlinable
  internal mutating func cancel() -> Subscription? {
    if case .awaitingSubscription = status { return nil }
    isCancelled = true
    isTakingEvents = false
    return status.terminate()
  }
}
