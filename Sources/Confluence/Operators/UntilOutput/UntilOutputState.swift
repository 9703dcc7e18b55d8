/// The state shared by `drop(untilOutputFrom:)` and `prefix(untilOutputFrom:)`: the main
/// upstream, the trigger publisher, whether the trigger fired, and who may call downstream.
/// A completion that arrives while another thread is delivering a value is left for that
/// thread to send. Transitions return what to do once the lock is released.
@usableFromInline
internal struct UntilOutputState<Downstream: Subscriber> {
  @usableFromInline
  internal enum Next {
    case idle
    /// Deliver the value (this thread now owns delivery).
    case deliver(Downstream, Downstream.Input)
    /// Drop the value and ask upstream for one more in its place.
    case replace
    case complete(Downstream, Subscribers.Completion<Downstream.Failure>, cancelling: [Subscription])
    case cancel([Subscription])
  }

  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var upstream = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var trigger = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var hasTriggered = false
  @usableFromInline internal var isDelivering = false
  @usableFromInline internal var pendingCompletion: Subscribers.Completion<Downstream.Failure>?
  /// Demand requested before upstream's subscription arrived.
  @usableFromInline internal var owedDemand = Subscribers.Demand.none

  @inlinable
  internal init(downstream: Downstream) {
    self.downstream = downstream
  }

  @inlinable
  internal mutating func upstreamSubscribed(_ subscription: Subscription) -> Subscribers.Demand? {
    guard downstream != nil, upstream.accept(subscription) else { return nil }
    defer { owedDemand = .none }
    return owedDemand
  }

  @inlinable
  internal mutating func triggerSubscribed(_ subscription: Subscription) -> Bool {
    downstream != nil && !hasTriggered && trigger.accept(subscription)
  }

  /// An upstream value: delivered if `passes` says so, else replaced.
  @inlinable
  internal mutating func value(_ value: Downstream.Input, passes: Bool) -> Next {
    guard let downstream, pendingCompletion == nil else { return .idle }
    guard passes else { return .replace }
    isDelivering = true
    return .deliver(downstream, value)
  }

  @inlinable
  internal mutating func didDeliver() -> Next {
    isDelivering = false
    guard let downstream else { return .idle }
    if let completion = pendingCompletion {
      self.downstream = nil
      return .complete(downstream, completion, cancelling: [])
    }
    return .idle
  }

  /// Ends everything with `completion` (delivered now, or by the delivering thread).
  @inlinable
  internal mutating func complete(_ completion: Subscribers.Completion<Downstream.Failure>) -> Next {
    guard let downstream, pendingCompletion == nil else { return .idle }
    let cancelling = [upstream.terminate(), trigger.terminate()].compactMap { $0 }
    if isDelivering {
      pendingCompletion = completion
      return .cancel(cancelling)
    }
    self.downstream = nil
    return .complete(downstream, completion, cancelling: cancelling)
  }

  /// The trigger fired: returns its subscription, to cancel.
  @inlinable
  internal mutating func fire() -> Subscription? {
    guard downstream != nil, !hasTriggered else { return nil }
    hasTriggered = true
    return trigger.terminate()
  }

  @inlinable
  internal mutating func request(_ demand: Subscribers.Demand) -> Subscription? {
    guard downstream != nil else { return nil }
    if let subscription = upstream.subscription { return subscription }
    owedDemand += demand
    return nil
  }

  @inlinable
  internal mutating func cancel() -> [Subscription] {
    guard downstream != nil else { return [] }
    downstream = nil
    return [upstream.terminate(), trigger.terminate()].compactMap { $0 }
  }
}
