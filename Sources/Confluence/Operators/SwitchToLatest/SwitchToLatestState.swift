/// The state machine of `switchToLatest`: which inner publisher is current, how much
/// downstream demand it has not used yet, and when everything is done.
@usableFromInline
internal struct SwitchToLatestState<Downstream: Subscriber> {
  @usableFromInline
  internal enum Next {
    case idle
    /// Deliver `value` (this thread owns delivery now).
    case deliver(Downstream.Input)
    case complete(Subscribers.Completion<Downstream.Failure>, cancelling: SubscriptionsToCancel)
    case cancel(SubscriptionsToCancel)
  }

  @usableFromInline internal var isTerminated = false
  @usableFromInline internal var upstream = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var upstreamFinished = false
  /// Whether downstream was handed the subscription before upstream was subscribed.
  @usableFromInline internal var downstreamHasSubscription = false
  /// The id of the current inner publisher; older ids are stale.
  @usableFromInline internal var currentID = 0
  /// The current inner's subscription (`.subscribed` once it arrived, else `.terminal`). A
  /// ``SubscriptionStatus``, not a `Subscription?`: Swift copies and destroys an optional of a
  /// non-class existential through the runtime's generic `Optional` value witnesses.
  @usableFromInline internal var current = SubscriptionStatus.terminal
  @usableFromInline internal var hasLiveInner = false
  /// Downstream demand not yet used up by inner values.
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var isDelivering = false
  /// Whether the backlog holds a completion: kept apart, so that the per-value transitions
  /// check it without touching the backlog or naming the completion's generic type
  /// (unspecialised code, an unoptimised build, looks that up in the runtime's cache on every call
  /// that names it).
  @usableFromInline internal var hasPendingCompletion = false
  /// How many values the backlog's queue holds: values that arrived while another thread was
  /// delivering, each accepted (its demand used) while its inner was the current one. A
  /// switch keeps them: a value accepted from the latest inner is delivered even if a newer
  /// inner arrives before its turn, ahead of every value of the newer one (the queue keeps
  /// arrival order).
  @usableFromInline internal var queuedCount = 0
  /// The queued values and the pending completion, made when the first of them has to wait
  /// (see ``SwitchToLatestBacklog`` for why they are not stored here).
  @usableFromInline internal var backlog: SwitchToLatestBacklog<Downstream.Input, Downstream.Failure>?

  @inlinable
  internal init() {}

  /// A new inner publisher arrived: returns its id (`nil` once terminated), with the previous
  /// inner to cancel in `previous`.
  ///
  /// With `atOnce` `true` (a `Just` inner that may deliver at once), when there is no earlier
  /// inner subscription to cancel first (nothing would run between the two), this is also
  /// ``innerValueAtOnce(id:)``, whose answer `atOnce` then holds. Otherwise the caller
  /// cancels `previous` and asks ``innerValueAtOnce(id:)`` itself.
  ///
  /// Always inlined, as are ``innerValueAtOnce(id:)`` and
  /// ``didDeliverAndFinishQuietly(additionalDemand:id:)``, the other transitions of a `Just`
  /// inner's value: called where the compiler did not specialise the subscription, each
  /// looked this struct's metadata up in the runtime's cache (about 330 instructions, twice
  /// per value per level); inlined, they touch only fields at fixed offsets.
  @inlinable
  @inline(__always)
  internal mutating func switchInner(previous: inout SubscriptionStatus, deliveringAtOnce atOnce: inout Bool)
    -> Int?
  {
    guard !isTerminated else { return nil }
    let asksNow = atOnce && !current.isSubscribed
    currentID &+= 1
    previous = current.take()
    hasLiveInner = true
    if asksNow { atOnce = innerValueAtOnce(id: currentID) }
    return currentID
  }

  /// The inner's subscription arrived: returns the demand to request, or `nil` to cancel.
  @inlinable
  internal mutating func innerSubscribed(_ id: Int, _ subscription: Subscription) -> Subscribers.Demand? {
    guard !isTerminated, id == currentID else { return nil }
    // As Apple's: a second subscription for the live inner is cancelled; one arriving
    // after the inner finished is ignored (neither kept nor cancelled).
    guard !current.isSubscribed else { return nil }
    guard hasLiveInner else { return Subscribers.Demand.none }
    current = .subscribed(holdSubscription(subscription))
    return demand
  }

  @inlinable
  internal mutating func innerValue(_ value: Downstream.Input, id: Int) -> Next {
    guard !isTerminated, id == currentID else { return .idle }
    // As Apple's: an inner publisher sending more than it was asked for traps.
    confluencePrecondition(demand > 0, "SwitchToLatest: an inner publisher sent a value it was not asked for")
    demand -= 1
    if isDelivering {
      makeBacklog().queued.append(value)
      queuedCount += 1
      return .idle
    }
    isDelivering = true
    return .deliver(value)
  }

  /// A `Just` inner (see `SwitchToLatestSubscription.upstreamValue(_:)`) may hand its value
  /// over at once: what subscribing to it would do if its subscriber's request met demand
  /// and no other thread was delivering. Returns `false` (changing nothing) otherwise.
  @inlinable
  @inline(__always)
  internal mutating func innerValueAtOnce(id: Int) -> Bool {
    guard !isTerminated, id == currentID, !current.isSubscribed, hasLiveInner, !isDelivering, demand > 0 else {
      return false
    }
    demand -= 1
    isDelivering = true
    return true
  }

  /// The `Just` inner of ``innerValueAtOnce(id:)`` finished.
  @inlinable
  internal mutating func innerFinishedAtOnce(id: Int) -> Next {
    guard !isTerminated, id == currentID else { return .idle }
    hasLiveInner = false
    return completeIfDone()
  }

  @inlinable
  internal mutating func innerFinished(id: Int) -> Next {
    guard !isTerminated, id == currentID else { return .idle }
    confluencePrecondition(
      current.isSubscribed, "SwitchToLatest: an inner publisher completed before sending its subscription")
    current = .terminal
    hasLiveInner = false
    return completeIfDone()
  }

  @inlinable
  internal mutating func upstreamDidFinish() -> Next {
    guard !isTerminated else { return .idle }
    upstreamFinished = true
    _ = upstream.terminate()
    return completeIfDone()
  }

  @inlinable
  internal mutating func fail(_ error: Downstream.Failure, innerID: Int?) -> Next {
    guard !isTerminated else { return .idle }
    // The publisher that failed is released, not cancelled.
    if let innerID {
      guard innerID == currentID else { return .idle }
      confluencePrecondition(
        current.isSubscribed, "SwitchToLatest: an inner publisher completed before sending its subscription")
      current = .terminal
    } else {
      _ = upstream.take()
    }
    let cancelling = releaseAll()
    if isDelivering {
      makeBacklog().pendingCompletion = .failure(error)
      hasPendingCompletion = true
      return .cancel(cancelling)
    }
    return .complete(.failure(error), cancelling: cancelling)
  }

  /// Downstream asked for more: returns the current inner to forward it to.
  @inlinable
  internal mutating func request(_ more: Subscribers.Demand) -> SubscriptionStatus {
    guard !isTerminated else { return .terminal }
    demand += more
    // Copied only when there is a subscription to ask: a copy of this enum (an existential
    // inside) runs through its value witnesses even for a case without one.
    return current.isSubscribed ? current : .terminal
  }

  /// The delivering thread is done with a value; `more` is what downstream returned.
  @inlinable
  ///
  /// Sets `forward` to the current inner, to forward downstream's added demand to. (Not a
  /// tuple with the `Next`: taking one apart copied the generic `Next` through its value
  /// witnesses, some 300 instructions per value handed over.)
  internal mutating func didDeliver(additionalDemand more: Subscribers.Demand, forward: inout SubscriptionStatus)
    -> Next
  {
    var finished = false
    return didDeliver(additionalDemand: more, forward: &forward, finishingAtOnce: nil, finished: &finished)
  }

  /// As ``didDeliver(additionalDemand:forward:)``; with the `Just` inner `id`, when that
  /// leaves nothing to do before the inner finishes (no subscription to ask, nothing to
  /// deliver or complete), also as ``innerFinishedAtOnce(id:)``, with `finished` set: the two
  /// in one critical section. Decided from the fields, before any `Next` is made (inspecting
  /// one copies it through its value witnesses).
  @inlinable
  internal mutating func didDeliver(
    additionalDemand more: Subscribers.Demand, forward: inout SubscriptionStatus, finishingAtOnce id: Int?,
    finished: inout Bool
  ) -> Next {
    isDelivering = false
    if hasPendingCompletion { return completePending() }
    guard !isTerminated else { return .idle }
    demand += more
    let asksForMore = more > 0 && current.isSubscribed
    if asksForMore { forward = current }
    if queuedCount != 0 {
      isDelivering = true
      queuedCount -= 1
      return .deliver(backlog.unsafelyUnwrapped.queued.removeFirst())
    }
    if let id, !asksForMore, !upstreamFinished || hasLiveInner {  // `completeIfDone()` would be `.idle`
      finished = true
      return innerFinishedAtOnce(id: id)
    }
    return completeIfDone()
  }

  /// The delivering thread is done and a completion waits: it is sent now. (Apart from
  /// ``didDeliver(additionalDemand:forward:finishingAtOnce:finished:)``, so that the
  /// completion's temporaries are not looked up on every value in unspecialised code.)
  @inlinable
  @inline(never)
  internal mutating func completePending() -> Next {
    let completion = backlog.unsafelyUnwrapped.pendingCompletion.take().unsafelyUnwrapped
    hasPendingCompletion = false
    isTerminated = true
    return .complete(completion, cancelling: .none)
  }

  /// The `Just` inner `id`, delivered at once, is done with its value (`more` is what
  /// downstream returned), when that leaves nothing else to do: as
  /// ``didDeliver(additionalDemand:forward:finishingAtOnce:finished:)`` followed by
  /// ``innerFinishedAtOnce(id:)`` when those would forward no demand, deliver nothing and
  /// complete nothing. Returns `false`, changing nothing, otherwise.
  ///
  /// (A pending completion is ruled out by the other conditions too: a failure terminates, and
  /// a finish waits only once upstream finished. It is checked anyway, as the first thing the
  /// general transition looks at.)
  ///
  /// Answers with a `Bool` rather than a `Next`: in unspecialised code, a function that
  /// makes a `Next` looks its generic metadata up in the runtime's cache on every call.
  @inlinable
  @inline(__always)
  internal mutating func didDeliverAndFinishQuietly(additionalDemand more: Subscribers.Demand, id: Int) -> Bool {
    guard !hasPendingCompletion, !isTerminated, !upstreamFinished, id == currentID, queuedCount == 0,
      !(more > 0 && current.isSubscribed)
    else { return false }
    isDelivering = false
    demand += more
    hasLiveInner = false
    return true
  }

  /// Downstream cancelled: returns upstream's subscription and hands out the current
  /// inner's through `inner`, both to cancel (the inner first, as Apple's), or leaves both
  /// `.terminal` once terminated. Two results, not a ``SubscriptionsToCancel``, whose array
  /// a pipeline of `switchToLatest`s built and dropped made and destroyed at every level.
  @inlinable
  internal mutating func cancel(inner: inout SubscriptionStatus) -> SubscriptionStatus {
    guard !isTerminated else { return .terminal }
    return terminate(inner: &inner)
  }

  @inlinable
  internal mutating func completeIfDone() -> Next {
    guard upstreamFinished, !hasLiveInner, queuedCount == 0 else { return .idle }
    if isDelivering {
      makeBacklog().pendingCompletion = .finished
      hasPendingCompletion = true
      return .idle
    }
    guard !isTerminated else { return .idle }
    return .complete(.finished, cancelling: releaseAll())
  }

  /// The backlog, made the first time something has to wait.
  @inlinable
  internal mutating func makeBacklog() -> SwitchToLatestBacklog<Downstream.Input, Downstream.Failure> {
    if let backlog { return backlog }
    let made = SwitchToLatestBacklog<Downstream.Input, Downstream.Failure>()
    backlog = made
    return made
  }

  @inlinable
  internal mutating func releaseAll() -> SubscriptionsToCancel {
    var inner = SubscriptionStatus.terminal
    let upstream = terminate(inner: &inner)
    // As Apple's: the current inner is cancelled before upstream.
    return SubscriptionsToCancel(first: inner, last: upstream)
  }

  /// Terminates: returns upstream's subscription and hands out the current inner's through
  /// `inner`, dropping what waits.
  @inlinable
  internal mutating func terminate(inner: inout SubscriptionStatus) -> SubscriptionStatus {
    inner = current.take()
    hasLiveInner = false
    if queuedCount != 0 {
      queuedCount = 0
      backlog.unsafelyUnwrapped.queued.removeAll()
    }
    isTerminated = true
    return upstream.take()
  }
}
