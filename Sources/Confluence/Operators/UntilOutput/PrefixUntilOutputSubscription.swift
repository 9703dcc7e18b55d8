/// `prefix(untilOutputFrom:)`'s subscription. It is `drop(untilOutputFrom:)`'s sibling and
/// keeps the same rules (see ``DropUntilOutputSubscription``), adapted to ending instead of
/// starting when the other publisher emits:
///
/// - the downstream receives it first, then the other publisher is subscribed (asked for one
///   value), then upstream (asked for the demand the downstream has requested so far; a
///   request before upstream's subscription, `.none` included, is kept without complaint);
/// - upstream values are passed on until the other's first value, with the demand the
///   downstream returns;
/// - the other's first value cancels upstream, then finishes the downstream. The other's
///   subscription is treated as `DropUntilOutput` treats it after its first value: kept
///   aside, and cancelled when the operator completes — which for `prefix` is now, so it is
///   cancelled after upstream and before the finish (a third-party publisher whose
///   subscription keeps its subscriber until cancelled would otherwise keep this chain).
///   From then on everything is over: later events go nowhere and a new upstream
///   subscription is cancelled;
/// - the other finishing or failing changes nothing (its failure type is not this
///   publisher's): its subscription is kept until upstream completes or the downstream
///   cancels, and a second one is cancelled, as with `DropUntilOutput` after its trigger;
/// - upstream's completions are passed on as they come, and each cancels the other's
///   subscription, if one is held. A value the other sends after that — one already in
///   flight on another thread when its subscription was cancelled — goes nowhere: it must
///   not finish a downstream that has completed (until upstream subscribes again);
/// - the downstream's cancel cancels upstream, then the other, and ends everything. A
///   cancel before upstream's subscription is remembered;
/// - the subscription keeps its downstream after completing or cancelling, as
///   `DropUntilOutput` does.
///
/// A completion that the other's value causes while upstream is delivering a value on
/// another thread waits for that delivery to end, so the downstream never receives two
/// events at once.
///
/// The subscriber handed to the other publisher shares this object's `combineIdentifier`;
/// both are described as "PrefixUntilOutput", with empty mirrors.
@usableFromInline
internal final class PrefixUntilOutputSubscription<Upstream: Publisher, Other: Publisher, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  @usableFromInline internal typealias Input = Upstream.Output
  @usableFromInline internal typealias Failure = Upstream.Failure

  @usableFromInline internal let downstream: Downstream
  @usableFromInline internal let lock = Lock()

  // Guarded by `lock`.
  @usableFromInline internal var upstream = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var other = SubscriptionStatus.awaitingSubscription
  /// Demand requested before upstream's subscription arrived.
  @usableFromInline internal var owedDemand = Subscribers.Demand.none
  /// Cancelled, or finished by the other's value: nothing more happens.
  @usableFromInline internal var isOver = false
  @usableFromInline internal var isDelivering = false
  /// The finish the other's value caused while a value was being delivered.
  @usableFromInline internal var finishAfterDelivery = false
  /// Upstream completed (and the other was cancelled): the other's value is ignored.
  @usableFromInline internal var upstreamCompleted = false

  @inlinable
  internal init(downstream: Downstream) {
    self.downstream = downstream
  }

  @inlinable
  internal func start(upstream upstreamPublisher: Upstream, other otherPublisher: Other) {
    downstream.receive(subscription: self)
    otherPublisher.subscribe(PrefixUntilOutputOtherSubscriber(parent: self))
    upstreamPublisher.subscribe(self)
  }

  // MARK: Upstream

  @inlinable
  internal func receive(subscription: Subscription) {
    let owed = lock.withLock { () -> Subscribers.Demand? in
      guard !isOver, upstream.accept(subscription) else { return nil }
      upstreamCompleted = false
      defer { owedDemand = .none }
      return owedDemand
    }
    guard let owed else {
      subscription.cancel()
      return
    }
    if owed != .none { subscription.request(owed) }
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    let delivers = lock.withLock { () -> Bool in
      guard !isOver else { return false }
      isDelivering = true
      return true
    }
    guard delivers else { return .none }
    let more = downstream.receive(input)
    let finishes = lock.withLock { () -> Bool in
      isDelivering = false
      defer { finishAfterDelivery = false }
      return finishAfterDelivery
    }
    if finishes { downstream.receive(completion: .finished) }
    return more
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    let taken = lock.withLock { () -> (other: SubscriptionStatus, upstream: SubscriptionStatus)? in
      guard !isOver else { return nil }
      upstreamCompleted = true
      defer {
        other = .awaitingSubscription
        upstream = .awaitingSubscription
      }
      return (other, upstream)
    }
    guard let taken else { return }
    taken.other.cancelSubscription()
    withExtendedLifetime(taken.upstream) {}
    downstream.receive(completion: completion)
  }

  // MARK: The other publisher

  @inlinable
  internal func otherSubscribed(_ subscription: Subscription) {
    let accepted = lock.withLock { !isOver && other.accept(subscription) }
    if accepted {
      subscription.request(.max(1))
    } else {
      subscription.cancel()
    }
  }

  @inlinable
  internal func otherSentValue() {
    let taken = lock.withLock { () -> (upstream: SubscriptionStatus, other: SubscriptionStatus, finishesNow: Bool)? in
      guard !isOver, !upstreamCompleted else { return nil }
      isOver = true
      if isDelivering { finishAfterDelivery = true }
      return (upstream.take(), other.take(), !isDelivering)
    }
    guard let taken else { return }
    taken.upstream.cancelSubscription()
    taken.other.cancelSubscription()
    if taken.finishesNow { downstream.receive(completion: .finished) }
  }

  /// The other finished or failed: ignored.
  @inlinable
  internal func otherCompleted() {}

  // MARK: Subscription

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    lock.withLock { () -> Subscription? in
      guard !isOver else { return nil }
      if let subscription = upstream.subscription { return subscription }
      owedDemand += demand
      return nil
    }?.request(demand)
  }

  @inlinable
  internal func cancel() {
    let taken = lock.withLock { () -> (SubscriptionStatus, SubscriptionStatus)? in
      guard !isOver else { return nil }
      isOver = true
      return (upstream.take(), other.take())
    }
    guard let (upstreamStatus, otherStatus) = taken else { return }
    upstreamStatus.cancelSubscription()
    otherStatus.cancelSubscription()
  }

  @usableFromInline internal var description: String { "PrefixUntilOutput" }

  @usableFromInline internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline internal var playgroundDescription: Any { description }
}

/// The subscriber `prefix(untilOutputFrom:)` attaches to the other publisher: it reports to
/// its parent and shares the parent's identity.
@usableFromInline
internal struct PrefixUntilOutputOtherSubscriber<Upstream: Publisher, Other: Publisher, Downstream: Subscriber>:
  Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  @usableFromInline internal typealias Input = Other.Output
  @usableFromInline internal typealias Failure = Other.Failure

  @usableFromInline internal let parent: PrefixUntilOutputSubscription<Upstream, Other, Downstream>

  @inlinable
  internal init(parent: PrefixUntilOutputSubscription<Upstream, Other, Downstream>) {
    self.parent = parent
  }

  @inlinable
  internal var combineIdentifier: CombineIdentifier { parent.combineIdentifier }

  @inlinable
  internal func receive(subscription: Subscription) { parent.otherSubscribed(subscription) }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    parent.otherSentValue()
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) { parent.otherCompleted() }

  @usableFromInline internal var description: String { "PrefixUntilOutput" }

  @usableFromInline internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline internal var playgroundDescription: Any { description }
}
