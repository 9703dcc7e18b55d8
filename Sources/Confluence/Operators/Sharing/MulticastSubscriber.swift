import Synchronization

/// What `Multicast` subscribes to its subject for each downstream subscriber.
///
/// Apple's rules, as the conformance suite records them: the downstream sees this object
/// as its subscription (described as "Multicast", an empty mirror) from the moment the
/// subject subscribes it; a second subscription is cancelled; the downstream's demand,
/// whether asked up front or returned from `receive(_:)`, is requested from the subject
/// as it comes (so `receive(_:)` itself returns `.none`); after a completion or a cancel
/// nothing more reaches the downstream, and the subject's subscription is let go of at once
/// (a subject written outside Confluence may hand out a subscription that keeps its
/// subscriber until cancelled, also after completing it; keeping that subscription would
/// keep the relay, its downstream, the subject and the source alive for good).
@usableFromInline
internal final class MulticastSubscriber<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline internal let downstream: Downstream
  @usableFromInline internal let lock = Lock()
  // Guarded by `lock`.
  @exclusivity(unchecked) @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  // Mirrors whether `status` is `.subscribed`, so that a value needs no lock round trip.
  @usableFromInline internal let isLive = Atomic<Bool>(false)
  /// Whether the subject is one of Confluence's (its subscription a `SubjectConduit`): written
  /// once, before ``isLive`` is first set (which publishes it), so a value reads it without
  /// the lock. Its conduit adds demand returned from `receive(_:)`
  /// exactly as it adds demand requested, so the relay returns it rather than making a
  /// separate request: the same effect, without a call through `any Subscription` per
  /// value. Any other subject is asked through `request(_:)`, as Apple's relay does.
  @exclusivity(unchecked) @usableFromInline internal nonisolated(unsafe) var returnsDemandToConduit = false

  @inlinable
  internal init(downstream: Downstream) {
    self.downstream = downstream
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard status.accept(subscription) else { return false }
      returnsDemandToConduit = subscription is SubjectConduit<Input, Failure>
      isLive.store(true, ordering: .releasing)
      return true
    }
    guard accepted else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    guard isLive.load(ordering: .acquiring) else { return .none }
    let more = downstream.receive(input)
    if returnsDemandToConduit { return more }
    // The returned demand is requested from the subject (Apple's rule), unless the
    // subscription ended meanwhile.
    if more != .none {
      lock.withLock { status.subscription }?.request(more)
    }
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    guard case .subscribed = lock.withLock({ () -> SubscriptionStatus in
      isLive.store(false, ordering: .releasing)
      return status.take()
    }) else { return }
    downstream.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  @inlinable
  internal func cancel() {
    lock.withLock { () -> SubscriptionStatus in
      isLive.store(false, ordering: .releasing)
      return status.take()
    }.cancelSubscription()
  }

  @usableFromInline internal var description: String { "Multicast" }

  @usableFromInline internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline internal var playgroundDescription: Any { description }
}
