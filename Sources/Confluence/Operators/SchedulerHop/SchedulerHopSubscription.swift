/// Stands between upstream and downstream for `receive(on:)` and `delay(for:…)`: every value
/// and the completion reach downstream through `Hop`'s scheduler, while demand and cancel
/// pass upstream synchronously. Shown as `Hop.name` by `print`.
///
/// Every delivery checks, under the lock, that the subscription is still live, so nothing
/// reaches downstream after `cancel()`; cancel also drops the downstream subscriber at once,
/// so deliveries still queued on the scheduler hold only this small object.
@usableFromInline
internal final class SchedulerHopSubscription<Downstream: Subscriber, Hop: SchedulerHop>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline internal let lock = Lock()
  // Guarded by `lock`.
  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
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
    let target = lock.withLock { () -> Downstream? in
      guard status.accept(subscription) else { return nil }
      return downstream
    }
    guard let target else {
      subscription.cancel()
      return
    }
    target.receive(subscription: self)
  }

  // Each event is queued and an action scheduled for it; an action delivers the *oldest*
  // queued event, and only one action is inside downstream at a time. On a serial
  // scheduler this is the plain order; on a concurrent one (a concurrent DispatchQueue)
  // it keeps the events in order and never overlaps two deliveries — a completion can
  // neither overtake the value before it nor arrive during it.

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    lock.withLock { pending.append(.value(input)) }
    hop.schedule { self.runScheduledAction() }
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    guard lock.withLock({ () -> Bool in
      guard status.subscription != nil else { return false }
      pending.append(.completion(completion))
      return true
    }) else { return }
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
      case .completion(let completion): deliver(completion)
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
    let target = lock.withLock { () -> Downstream? in status.subscription == nil ? nil : downstream }
    guard let target else { return }
    let more = target.receive(input)
    guard more > 0 else { return }
    lock.withLock { status.subscription }?.request(more)
  }

  @inlinable
  internal func deliver(_ completion: Subscribers.Completion<Failure>) {
    let target = lock.withLock { () -> Downstream? in
      guard status.terminate() != nil else { return nil }
      defer { downstream = nil }
      return downstream
    }
    target?.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    // As Apple's (receive(on:), delay): the demand, `.none` included, goes upstream unchecked.
    lock.withLock { status.subscription }?.request(demand)
  }

  @inlinable
  internal func cancel() {
    let (subscription, released, dropped) = lock.withLock { () -> (Subscription?, Downstream?, FIFOQueue<Event>) in
      defer {
        downstream = nil
        pending = FIFOQueue()
      }
      return (status.terminate(), downstream, pending)
    }
    subscription?.cancel()
    withExtendedLifetime((released, dropped)) {}
  }

  @usableFromInline internal var description: String { Hop.name }

  @usableFromInline internal var customMirror: Mirror {
    let downstream = lock.withLock { self.downstream }
    let children = [(label: String?, value: Any)]([("downstream", downstream as Any)])
      + hop.mirrorChildren.map { (label: $0.label as String?, value: $0.value) }
    return Mirror(self, children: children)
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}
