/// `drop(untilOutputFrom:)`'s subscription, with Apple's rules as the conformance suite
/// records them:
///
/// - the downstream receives it first, then the other publisher is subscribed (asked for one
///   value), then upstream (asked for the demand the downstream has requested so far,
///   `.none` included without complaint);
/// - upstream values before the other's first value are dropped and answered `.none`; after
///   it they are passed on. Every value uses up one unit of the downstream's demand, and a
///   value beyond that demand is a broken contract that traps;
/// - the other's first value releases its subscription (without cancelling it), so a later
///   subscription from it is accepted; before that, an extra one is cancelled;
/// - the other finishing or failing before its first value cancels and releases upstream's
///   subscription (a later one is accepted) and completes the downstream — each time it
///   happens; after its first value its completions are ignored;
/// - upstream's completions are passed on as they come (each releases upstream's
///   subscription and cancels the other's, if one is held);
/// - the downstream's cancel cancels upstream, then the other, and ends everything: later
///   events go nowhere and a new upstream subscription is cancelled. A cancel before
///   upstream's subscription is remembered.
///
/// The subscriber handed to the other publisher shares this object's `combineIdentifier`;
/// both are described as "DropUntilOutput", with empty mirrors.
@usableFromInline
internal final class DropUntilOutputSubscription<Upstream: Publisher, Other: Publisher, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure, Other.Failure == Upstream.Failure {
  @usableFromInline internal typealias Input = Upstream.Output
  @usableFromInline internal typealias Failure = Upstream.Failure

  @usableFromInline internal let downstream: Downstream
  @usableFromInline internal let lock = Lock()

  // Guarded by `lock`.
  @usableFromInline internal var upstream = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var other = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var hasTriggered = false
  /// The other's subscription after its first value: released as Apple's is (a new one is
  /// accepted), kept aside only to be cancelled when upstream completes, so that a trigger
  /// with more to send is not left holding this chain; a cancel lets go of it uncancelled.
  @usableFromInline internal var firedOther: Subscription?
  @usableFromInline internal var isCancelled = false

  @inlinable
  internal init(downstream: Downstream) {
    self.downstream = downstream
  }

  @inlinable
  internal func start(upstream upstreamPublisher: Upstream, other otherPublisher: Other) {
    downstream.receive(subscription: self)
    otherPublisher.subscribe(DropUntilOutputOtherSubscriber(parent: self))
    upstreamPublisher.subscribe(self)
  }

  // MARK: Upstream

  @inlinable
  internal func receive(subscription: Subscription) {
    let owed = lock.withLock { () -> Subscribers.Demand? in
      guard !isCancelled, upstream.accept(subscription) else { return nil }
      return demand
    }
    guard let owed else {
      subscription.cancel()
      return
    }
    if owed != .none { subscription.request(owed) }
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    let passes = lock.withLock { () -> Bool? in
      if isCancelled { return nil }
      precondition(demand > .none, "drop(untilOutputFrom:) received a value beyond the demand requested")
      demand -= 1
      return hasTriggered
    }
    guard passes == true else { return .none }
    let more = downstream.receive(input)
    if more != .none {
      lock.withLock { demand += more }
    }
    return more
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    let taken = lock.withLock {
      () -> (other: SubscriptionStatus, upstream: SubscriptionStatus, fired: Subscription?)? in
      guard !isCancelled else { return nil }
      defer {
        other = .awaitingSubscription
        upstream = .awaitingSubscription
        firedOther = nil
      }
      return (other, upstream, firedOther)
    }
    guard let taken else { return }
    taken.other.cancelSubscription()
    taken.fired?.cancel()
    withExtendedLifetime(taken.upstream) {}
    downstream.receive(completion: completion)
  }

  // MARK: The other publisher

  @inlinable
  internal func otherSubscribed(_ subscription: Subscription) {
    let accepted = lock.withLock { () -> Bool in
      !isCancelled && other.accept(subscription)
    }
    if accepted {
      subscription.request(.max(1))
    } else {
      subscription.cancel()
    }
  }

  @inlinable
  internal func otherSentValue() {
    let released = lock.withLock { () -> SubscriptionStatus? in
      guard !isCancelled else { return nil }
      hasTriggered = true
      defer { other = .awaitingSubscription }
      if let fired = other.subscription { firedOther = fired }
      return other
    }
    withExtendedLifetime(released) {}
  }

  @inlinable
  internal func otherCompleted(_ completion: Subscribers.Completion<Failure>) {
    let upstreamToCancel = lock.withLock { () -> SubscriptionStatus? in
      guard !isCancelled, !hasTriggered else { return nil }
      defer { upstream = .awaitingSubscription }
      return upstream.take()
    }
    guard let upstreamToCancel else { return }
    upstreamToCancel.cancelSubscription()
    downstream.receive(completion: completion)
  }

  // MARK: Subscription

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    lock.withLock { () -> Subscription? in
      guard !isCancelled else { return nil }
      self.demand += demand
      return upstream.subscription
    }?.request(demand)
  }

  @inlinable
  internal func cancel() {
    let taken = lock.withLock { () -> (SubscriptionStatus, SubscriptionStatus, Subscription?)? in
      guard !isCancelled else { return nil }
      isCancelled = true
      defer { firedOther = nil }
      return (upstream.take(), other.take(), firedOther)
    }
    guard let (upstreamStatus, otherStatus, fired) = taken else { return }
    upstreamStatus.cancelSubscription()
    otherStatus.cancelSubscription()
    // The other's subscription, kept aside after it fired, is let go of but not cancelled
    // (Apple's operator does not cancel it): kept, it would form a cycle with a subscription
    // that keeps its subscriber after the other publisher let go of it.
    withExtendedLifetime(fired) {}
  }

  @usableFromInline internal var description: String { "DropUntilOutput" }

  @usableFromInline internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline internal var playgroundDescription: Any { description }
}

/// The subscriber `drop(untilOutputFrom:)` attaches to the other publisher: it reports to
/// its parent and shares the parent's identity.
@usableFromInline
internal struct DropUntilOutputOtherSubscriber<Upstream: Publisher, Other: Publisher, Downstream: Subscriber>:
  Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure, Other.Failure == Upstream.Failure {
  @usableFromInline internal typealias Input = Other.Output
  @usableFromInline internal typealias Failure = Other.Failure

  @usableFromInline internal let parent: DropUntilOutputSubscription<Upstream, Other, Downstream>

  @inlinable
  internal init(parent: DropUntilOutputSubscription<Upstream, Other, Downstream>) {
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
  internal func receive(completion: Subscribers.Completion<Failure>) { parent.otherCompleted(completion) }

  @usableFromInline internal var description: String { "DropUntilOutput" }

  @usableFromInline internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline internal var playgroundDescription: Any { description }
}
