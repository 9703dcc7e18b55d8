import Confluence

/// The subscription of ``Publishers/WithLatestFrom``; shown as `WithLatestFrom` by `print`.
///
/// It subscribes downstream first, then `other` (so that a synchronous `other`, such as
/// `Just`, has a value before upstream starts), then upstream. Demand requested before
/// upstream's subscription arrives is held and passed on when it does.
///
/// Threading: upstream and `other` may deliver concurrently. Everything they share — the
/// latest value of `other`, both subscriptions, the downstream subscriber and the result
/// selector — lives under `lock`, which is never held while calling out. Downstream events
/// are serialised by `isEmitting`: while an upstream value is being handed downstream, a
/// completion arriving from elsewhere (a failure of `other`, or upstream completing
/// re-entrantly) is parked in `pendingCompletion` and delivered by the emitting call when
/// downstream returns. Termination (completion, failure, cancel) clears every reference
/// under the lock and releases it outside, so no cycle survives it.
@usableFromInline
internal final class WithLatestFromSubscription<Upstream: Publisher, Other: Publisher, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Upstream.Failure == Other.Failure, Downstream.Failure == Upstream.Failure {
  @usableFromInline internal typealias Input = Upstream.Output
  @usableFromInline internal typealias Failure = Upstream.Failure
  @usableFromInline internal typealias Selector = (Upstream.Output, Other.Output) -> Downstream.Input

  /// What an upstream value found when it took the lock.
  @usableFromInline
  internal enum Arrival {
    /// Terminated: ignore the value.
    case ignore
    /// `other` has no value yet: drop the value and ask upstream for a replacement.
    case drop
    /// Publish `selector(value, latest)` to `downstream`.
    case emit(Downstream, Selector, Other.Output)
  }

  /// Everything a terminating call takes out of the lock, to call or release outside it.
  @usableFromInline
  internal struct Teardown {
    @usableFromInline internal var downstream: Downstream?
    @usableFromInline internal var upstream: Subscription?
    @usableFromInline internal var other: Subscription?
    @usableFromInline internal var latest: Other.Output?
    @usableFromInline internal var selector: Selector?

    @inlinable
    internal init() {}
  }

  @usableFromInline internal let lock = Lock()

  // Guarded by `lock`.
  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var selector: Selector?
  @usableFromInline internal var upstreamStatus = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var otherStatus = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var latest: Other.Output?
  /// Demand requested before upstream's subscription arrived.
  @usableFromInline internal var pendingDemand = Subscribers.Demand.none
  /// An upstream value is being handed downstream.
  @usableFromInline internal var isEmitting = false
  /// A completion that arrived while `isEmitting`; the emitting call delivers it.
  @usableFromInline internal var pendingCompletion: Subscribers.Completion<Failure>?
  @usableFromInline internal var isTerminated = false

  @inlinable
  internal init(downstream: Downstream, resultSelector: @escaping Selector) {
    self.downstream = downstream
    self.selector = resultSelector
  }

  /// Hands downstream this subscription, then subscribes to `other` and to upstream, unless
  /// something already ended it.
  @inlinable
  internal func start(upstream: Upstream, other: Other) {
    guard let downstream = lock.withLock({ downstream }) else { return }
    downstream.receive(subscription: self)
    guard !lock.withLock({ isTerminated }) else { return }
    other.subscribe(WithLatestFromOtherSubscriber(owner: self))
    guard !lock.withLock({ isTerminated }) else { return }
    upstream.subscribe(self)
  }

  // MARK: Upstream

  @inlinable
  internal func receive(subscription: Subscription) {
    let demand = lock.withLock { () -> Subscribers.Demand? in
      guard upstreamStatus.accept(subscription) else { return nil }
      defer { pendingDemand = .none }
      return pendingDemand
    }
    guard let demand else {
      subscription.cancel()
      return
    }
    if demand > 0 {
      subscription.request(demand)
    }
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    let arrival = lock.withLock { () -> Arrival in
      guard case .subscribed = upstreamStatus, let downstream, let selector else { return .ignore }
      guard let latest else { return .drop }
      isEmitting = true
      return .emit(downstream, selector, latest)
    }
    switch arrival {
    case .ignore:
      return .none
    case .drop:
      return .max(1)
    case .emit(let downstream, let selector, let latest):
      let more = downstream.receive(selector(input, latest))
      let parked = lock.withLock { () -> (Subscribers.Completion<Failure>, Teardown)? in
        isEmitting = false
        guard let completion = pendingCompletion else { return nil }
        pendingCompletion = nil
        return (completion, takeEverything())
      }
      if let parked {
        parked.1.downstream?.receive(completion: parked.0)
        return .none
      }
      return more
    }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    terminate(with: completion)
  }

  // MARK: Other

  @inlinable
  internal func receiveOther(subscription: Subscription) {
    if lock.withLock({ otherStatus.accept(subscription) }) {
      subscription.request(.unlimited)
    } else {
      subscription.cancel()
    }
  }

  @inlinable
  internal func receiveOther(_ input: Other.Output) {
    var replaced: Other.Output? = input
    lock.withLock {
      guard case .subscribed = otherStatus else { return }
      swap(&latest, &replaced)
    }
    // The value it replaced is released here, outside the lock.
  }

  @inlinable
  internal func receiveOther(completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished:
      // Its last value stays the latest; only the finished subscription is let go.
      let finished = lock.withLock { otherStatus.terminate() }
      withExtendedLifetime(finished) {}
    case .failure:
      terminate(with: completion)
    }
  }

  // MARK: Ending

  /// Clears every reference; call with the lock held. The caller releases the result
  /// outside the lock.
  @inlinable
  internal func takeEverything() -> Teardown {
    isTerminated = true
    var teardown = Teardown()
    teardown.upstream = upstreamStatus.terminate()
    teardown.other = otherStatus.terminate()
    swap(&teardown.downstream, &downstream)
    swap(&teardown.latest, &latest)
    swap(&teardown.selector, &selector)
    return teardown
  }

  /// Ends the subscription with `completion` (from upstream or from `other`), cancelling
  /// whichever input is still running. If an upstream value is being handed downstream, the
  /// completion is parked for that call to deliver.
  @inlinable
  internal func terminate(with completion: Subscribers.Completion<Failure>) {
    let teardown = lock.withLock { () -> Teardown? in
      guard !isTerminated else { return nil }
      if isEmitting {
        isTerminated = true
        pendingCompletion = completion
        var teardown = Teardown()
        teardown.upstream = upstreamStatus.terminate()
        teardown.other = otherStatus.terminate()
        return teardown
      }
      return takeEverything()
    }
    guard let teardown else { return }
    // The input that completed has already ended; cancelling its subscription again is
    // harmless, and cancelling the other one is the point.
    teardown.upstream?.cancel()
    teardown.other?.cancel()
    teardown.downstream?.receive(completion: completion)
  }

  // MARK: Subscription

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    let target = lock.withLock { () -> Subscription? in
      guard !isTerminated else { return nil }
      if let subscription = upstreamStatus.subscription { return subscription }
      pendingDemand += demand
      return nil
    }
    target?.request(demand)
  }

  @inlinable
  internal func cancel() {
    let teardown = lock.withLock { () -> Teardown? in
      pendingCompletion = nil
      guard !isTerminated || isEmitting else { return nil }
      return takeEverything()
    }
    teardown?.upstream?.cancel()
    teardown?.other?.cancel()
  }

  @usableFromInline internal var description: String { "WithLatestFrom" }

  @usableFromInline internal var customMirror: Mirror {
    let latest = lock.withLock { self.latest }
    return Mirror(self, children: ["latest": latest as Any])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}

/// Subscribes a ``WithLatestFromSubscription`` to its `other` publisher.
@usableFromInline
internal struct WithLatestFromOtherSubscriber<Upstream: Publisher, Other: Publisher, Downstream: Subscriber>:
  Subscriber,
  CustomStringConvertible
where Upstream.Failure == Other.Failure, Downstream.Failure == Upstream.Failure {
  @usableFromInline internal typealias Input = Other.Output
  @usableFromInline internal typealias Failure = Other.Failure

  @usableFromInline internal let owner: WithLatestFromSubscription<Upstream, Other, Downstream>
  @usableFromInline internal let combineIdentifier = CombineIdentifier()

  @inlinable
  internal init(owner: WithLatestFromSubscription<Upstream, Other, Downstream>) {
    self.owner = owner
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    owner.receiveOther(subscription: subscription)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    owner.receiveOther(input)
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    owner.receiveOther(completion: completion)
  }

  @usableFromInline internal var description: String { "WithLatestFrom" }
}
