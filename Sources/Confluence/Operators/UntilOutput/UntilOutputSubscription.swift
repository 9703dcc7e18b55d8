/// The subscription of the until-output operators (`drop(untilOutputFrom:)`,
/// `prefix(untilOutputFrom:)`), generic over the operator's ``UntilOutputLogic``.
///
/// What the family shares, as the conformance suite records Apple's operators:
///
/// - the other publisher is subscribed first and asked for one value (`.max(1)`), then
///   upstream; the downstream's requests are passed upstream (kept, `.none` included,
///   until upstream's subscription arrives);
/// - a second subscription from either source, while one is held, is cancelled;
/// - a cancel before upstream's subscription is remembered: upstream's subscription is
///   cancelled when it arrives, and so is a late one from the other;
/// - the downstream's cancel cancels upstream, and the subscription keeps its downstream
///   afterwards (a subscriber that keeps its subscription forms a cycle with it, as with
///   Apple's);
/// - the subscriber handed to the other publisher shares this object's `combineIdentifier`.
///
/// What differs is the logic's ``UntilOutputRules``: when the downstream gets its
/// subscription, what the other's value and completion do, whether demand is counted,
/// whether the other's subscription is ever cancelled, and what happens to events that come
/// before a subscription or after a completion.
///
/// Beyond Apple's record, three rules hold for the whole family: a completion that the
/// other publisher causes while upstream is delivering a value on another thread waits until
/// that delivery returns (the downstream never receives two events at once); once the
/// operator has ended (cancelled, or for an operator that completes once, completed), the
/// subscriber it handed to the other publisher lets go of it, so that another publisher that
/// stays live does not keep the chain; and an other's subscription the operator let go of
/// without cancelling it (as Apple's does) is cancelled when the operator is freed, when
/// nothing can observe it any more, so that the other publisher does not keep what it holds
/// for a subscriber nobody has (Tests/ConformanceNotes.md, until-output rules).
@usableFromInline
internal final class UntilOutputSubscription<
  Logic: UntilOutputLogic, Upstream: Publisher, Other: Publisher, Downstream: Subscriber
>: Subscriber, Subscription
where
  Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure, Logic.Failure == Upstream.Failure,
  Logic.OtherFailure == Other.Failure
{
  @usableFromInline internal typealias Input = Upstream.Output
  @usableFromInline internal typealias Failure = Upstream.Failure
  @usableFromInline internal typealias OtherSubscriber = UntilOutputOtherSubscriber<UntilOutputSubscription>

  @usableFromInline internal let downstream: Downstream
  @usableFromInline internal let lock = Lock()

  // Guarded by `lock`.
  @usableFromInline internal var upstream = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var other = SubscriptionStatus.awaitingSubscription
  /// The subscriber handed to the other publisher, told to let go of this object at the end.
  @usableFromInline internal weak var otherSubscriber: OtherSubscriber?
  /// Requested and not yet used up (``UntilOutputRules/countsDemand``), or requested before
  /// upstream's subscription arrived.
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var downstreamHasSubscription = false
  /// The other publisher has sent its value.
  @usableFromInline internal var triggered = false
  /// Nothing more happens: cancelled, or ended by an operator that completes once.
  @usableFromInline internal var isEnded = false
  /// The other's subscriptions the operator let go of without cancelling them, as Apple's
  /// does (`drop`: after the other's value, so that a new one is accepted; `prefix`: at its
  /// end). They are cancelled when the operator itself is freed (or, for an operator that
  /// ``UntilOutputRules/cancelsOther``, when upstream completes): nothing can observe the
  /// operator then, and a subscription left uncancelled would keep whatever the other
  /// publisher holds for it (a sequence's remaining elements, a subject's subscriber).
  @usableFromInline internal var uncancelledOthers: [Subscription] = []
  @usableFromInline internal var isDelivering = false
  /// A completion the other publisher caused while a value was being delivered.
  @usableFromInline internal var completionAfterDelivery: Subscribers.Completion<Failure>?

  @inlinable
  internal init(downstream: Downstream) {
    self.downstream = downstream
  }

  @inlinable
  deinit {
    for subscription in uncancelledOthers { subscription.cancel() }
  }

  @inlinable
  internal func start(upstream upstreamPublisher: Upstream, other otherPublisher: Other) {
    let otherSubscriber = OtherSubscriber(parent: self)
    let handsSubscription = lock.withLock { () -> Bool in
      self.otherSubscriber = otherSubscriber
      guard Logic.rules.handsDownstreamItsSubscriptionFirst else { return false }
      downstreamHasSubscription = true
      return true
    }
    if handsSubscription { downstream.receive(subscription: self) }
    otherPublisher.subscribe(otherSubscriber)
    upstreamPublisher.subscribe(self)
  }

  /// Whether events from a source whose status is `status` are ignored because its
  /// subscription has not arrived yet.
  @inlinable
  internal static func ignoresEvents(from status: SubscriptionStatus) -> Bool {
    guard Logic.rules.ignoresEventsBeforeSubscription else { return false }
    switch status {
    case .awaitingSubscription: return true
    case .subscribed, .terminal: return false
    }
  }

  // MARK: Upstream

  @inlinable
  internal func receive(subscription: Subscription) {
    let accepted = lock.withLock { () -> (handsSubscription: Bool, owed: Subscribers.Demand)? in
      guard !isEnded, upstream.accept(subscription) else { return nil }
      defer {
        downstreamHasSubscription = true
        if !Logic.rules.countsDemand { demand = .none }
      }
      return (!downstreamHasSubscription, demand)
    }
    guard let accepted else {
      subscription.cancel()
      return
    }
    if accepted.handsSubscription { downstream.receive(subscription: self) }
    if accepted.owed != .none { subscription.request(accepted.owed) }
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    let delivers = lock.withLock { () -> Bool in
      if isEnded || Self.ignoresEvents(from: upstream) { return false }
      if Logic.rules.countsDemand {
        confluencePrecondition(demand > .none, "\(Logic.method) received a value beyond the demand requested")
        demand -= 1
      }
      // `drop` publishes once the other has sent its value; `prefix` until then (after it,
      // it has ended).
      guard Logic.rules.otherValueFinishes || triggered else { return false }
      isDelivering = true
      return true
    }
    guard delivers else { return .none }
    let more = downstream.receive(input)
    let completion = lock.withLock { () -> Subscribers.Completion<Failure>? in
      isDelivering = false
      if Logic.rules.countsDemand { demand += more }
      return completionAfterDelivery.take()
    }
    if let completion { downstream.receive(completion: completion) }
    return more
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    let taken = lock.withLock {
      () -> (upstream: SubscriptionStatus, toCancel: [Subscription], severs: OtherSubscriber?)? in
      guard !isEnded, !Self.ignoresEvents(from: upstream) else { return nil }
      let upstreamStatus = upstream.take()
      var toCancel: [Subscription] = []
      if Logic.rules.cancelsOther {
        if let held = other.take().subscription { toCancel.append(held) }
        toCancel += uncancelledOthers
        uncancelledOthers = []
      } else {
        keepUncancelled(other.take())
      }
      if Logic.rules.completesOnce {
        isEnded = true
        return (upstreamStatus, toCancel, otherSubscriber)
      }
      // Apple's `drop` passes on every completion and accepts a later subscription from
      // either source.
      upstream = .awaitingSubscription
      other = .awaitingSubscription
      return (upstreamStatus, toCancel, nil)
    }
    guard let taken else { return }
    for subscription in taken.toCancel { subscription.cancel() }
    taken.severs?.letGoOfParent()
    _fixLifetime(taken.upstream)
    downstream.receive(completion: completion)
  }

  /// Keeps the other's subscription in `status` to be cancelled when the operator is freed.
  /// Call it with the lock held.
  @inlinable
  internal func keepUncancelled(_ status: consuming SubscriptionStatus) {
    if let subscription = status.subscription { uncancelledOthers.append(subscription) }
  }

  // MARK: The other publisher

  @inlinable
  internal func otherSubscribed(_ subscription: Subscription) {
    let accepted = lock.withLock { !isEnded && other.accept(subscription) }
    if accepted {
      subscription.request(.max(1))
    } else {
      subscription.cancel()
    }
  }

  @inlinable
  internal func otherSentValue() {
    if Logic.rules.otherValueFinishes {
      finishOnOthersValue()
    } else {
      startPublishingOnOthersValue()
    }
  }

  /// `drop`: from now on upstream's values are passed on. The other's subscription is
  /// released without a cancel, so that a later one is accepted, as Apple's is.
  @inlinable
  internal func startPublishingOnOthersValue() {
    lock.withLock {
      guard !isEnded, !Self.ignoresEvents(from: other) else { return }
      triggered = true
      keepUncancelled(other.take())
      other = .awaitingSubscription
    }
  }

  /// `prefix`: upstream is cancelled and the downstream finishes, after the value being
  /// delivered if there is one. The other's subscription is let go of, never cancelled.
  ///
  /// Before upstream's subscription, Apple's operator sends the completion at once, to a
  /// downstream that has no subscription yet; Confluence hands the downstream its
  /// subscription (this object, already ended) just before the completion, so that every
  /// subscriber receives its subscription first (Tests/ConformanceNotes.md). Upstream's
  /// subscription is cancelled when it arrives.
  @inlinable
  internal func finishOnOthersValue() {
    let taken = lock.withLock {
      () -> (upstream: SubscriptionStatus, severs: OtherSubscriber?, handsSubscription: Bool, finishesNow: Bool)? in
      guard !isEnded, !Self.ignoresEvents(from: other) else { return nil }
      triggered = true
      isEnded = true
      keepUncancelled(other.take())
      let handsSubscription = !downstreamHasSubscription
      downstreamHasSubscription = true
      if isDelivering { completionAfterDelivery = .finished }
      return (upstream.take(), otherSubscriber, handsSubscription, !isDelivering)
    }
    guard let taken else { return }
    taken.upstream.cancelSubscription()
    taken.severs?.letGoOfParent()
    if taken.handsSubscription { downstream.receive(subscription: self) }
    if taken.finishesNow { downstream.receive(completion: .finished) }
  }

  @inlinable
  internal func otherCompleted(_ completion: Subscribers.Completion<Other.Failure>) {
    // `prefix`: the other finishing or failing without a value changes nothing.
    guard let ending = Logic.completion(forOthers: completion) else { return }
    let taken = lock.withLock { () -> (upstream: SubscriptionStatus, completesNow: Bool)? in
      guard !isEnded, !triggered, !Self.ignoresEvents(from: other) else { return nil }
      let upstreamStatus = upstream.take()
      if !Logic.rules.completesOnce { upstream = .awaitingSubscription }
      if isDelivering { completionAfterDelivery = ending }
      return (upstreamStatus, !isDelivering)
    }
    guard let taken else { return }
    taken.upstream.cancelSubscription()
    if taken.completesNow { downstream.receive(completion: ending) }
  }

  // MARK: Subscription

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    lock.withLock { () -> Subscription? in
      guard !isEnded else { return nil }
      let subscription = upstream.subscription
      if Logic.rules.countsDemand || subscription == nil { self.demand += demand }
      return subscription
    }?.request(demand)
  }

  @inlinable
  internal func cancel() {
    let taken = lock.withLock {
      () -> (upstream: SubscriptionStatus, other: SubscriptionStatus, severs: OtherSubscriber?)? in
      guard !isEnded else { return nil }
      isEnded = true
      let otherStatus = other.take()
      // `prefix` never cancels the other's subscription; neither does `drop` one it let go
      // of after the other's value (both recorded).
      guard Logic.rules.cancelsOther else {
        keepUncancelled(otherStatus)
        return (upstream.take(), .terminal, otherSubscriber)
      }
      return (upstream.take(), otherStatus, otherSubscriber)
    }
    guard let taken else { return }
    taken.upstream.cancelSubscription()
    taken.other.cancelSubscription()
    taken.severs?.letGoOfParent()
  }
}

extension UntilOutputSubscription: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Logic: DescribedUntilOutputLogic {
  @usableFromInline internal var description: String { Logic.name }

  @usableFromInline internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline internal var playgroundDescription: Any { description }
}

/// What the subscriber an until-output operator hands the other publisher reports to: the
/// operator's subscription.
@usableFromInline
internal protocol UntilOutputOtherReceiver: AnyObject {
  associatedtype Logic: UntilOutputLogic
  associatedtype OtherOutput

  var combineIdentifier: CombineIdentifier { get }
  func otherSubscribed(_ subscription: Subscription)
  func otherSentValue()
  func otherCompleted(_ completion: Subscribers.Completion<Logic.OtherFailure>)
}

extension UntilOutputSubscription: UntilOutputOtherReceiver {
  @usableFromInline internal typealias OtherOutput = Other.Output
}

/// The subscriber an until-output operator attaches to the other publisher: it reports to
/// its parent and shares the parent's identity. Once the parent has ended it lets go of it
/// (the other publisher may keep this subscriber for as long as it lives), and from then on
/// cancels any subscription it is given and ignores everything else.
@usableFromInline
internal final class UntilOutputOtherSubscriber<Parent: UntilOutputOtherReceiver>: Subscriber {
  @usableFromInline internal typealias Input = Parent.OtherOutput
  @usableFromInline internal typealias Failure = Parent.Logic.OtherFailure

  @usableFromInline internal let combineIdentifier: CombineIdentifier
  @usableFromInline internal let lock = Lock()
  /// Guarded by `lock`; `nil` once the parent has ended.
  @usableFromInline internal var parent: Parent?

  @inlinable
  internal init(parent: Parent) {
    combineIdentifier = parent.combineIdentifier
    self.parent = parent
  }

  @inlinable
  internal var currentParent: Parent? { lock.withLock { parent } }

  @inlinable
  internal func letGoOfParent() {
    let released = lock.withLock { parent.take() }
    _fixLifetime(released)
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    guard let parent = currentParent else {
      subscription.cancel()
      return
    }
    parent.otherSubscribed(subscription)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    currentParent?.otherSentValue()
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    currentParent?.otherCompleted(completion)
  }
}

extension UntilOutputOtherSubscriber: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Parent.Logic: DescribedUntilOutputLogic {
  @usableFromInline internal var description: String { Parent.Logic.name }

  @usableFromInline internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline internal var playgroundDescription: Any { description }
}
