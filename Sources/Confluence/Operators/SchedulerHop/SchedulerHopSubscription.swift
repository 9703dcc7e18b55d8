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
  @usableFromInline internal let hop: Hop

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

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    hop.schedule { self.deliver(input) }
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    guard lock.withLock({ status.subscription != nil }) else { return }
    hop.schedule { self.deliver(completion) }
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
    demand.assertNonZero()
    lock.withLock { status.subscription }?.request(demand)
  }

  @inlinable
  internal func cancel() {
    let (subscription, released) = lock.withLock { () -> (Subscription?, Downstream?) in
      defer { downstream = nil }
      return (status.terminate(), downstream)
    }
    subscription?.cancel()
    withExtendedLifetime(released) {}
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
