import Synchronization

/// What `Multicast` subscribes to its subject for each downstream subscriber.
///
/// Apple's rules, as the conformance suite records them: the downstream sees this object
/// as its subscription (described as "Multicast", an empty mirror) from the moment the
/// subject subscribes it; a second subscription is cancelled; the downstream's demand,
/// whether asked up front or returned from `receive(_:)`, is requested from the subject
/// as it comes (so `receive(_:)` itself returns `.none`); after a completion or a cancel
/// nothing more reaches the downstream.
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
  /// The accepted subscription, for the demand downstream returns with each value: written
  /// once, before ``isLive`` is first set (which publishes it), and never again, so reading
  /// it after seeing ``isLive`` needs no lock. (`status` gives it up at cancel and
  /// completion; this keeps it until the relay goes, which only a request after the end
  /// could notice, and that request is not made.)
  @exclusivity(unchecked) @usableFromInline internal nonisolated(unsafe) var acceptedSubscription: Subscription?
  /// Whether the subject is one of Confluence's (its subscription a `SubjectConduit`, set
  /// with ``acceptedSubscription``). Its conduit adds demand returned from `receive(_:)`
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
      acceptedSubscription = subscription
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
    // The returned demand is requested from the subject (Apple's rule) without the lock.
    if more != .none, isLive.load(ordering: .acquiring) {
      acceptedSubscription.unsafelyUnwrapped.request(more)
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
