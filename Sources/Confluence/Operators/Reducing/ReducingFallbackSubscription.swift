/// The subscription behind `replaceEmpty(with:)` and `replaceError(with:)`: passes values
/// through, and at the end publishes one fallback value instead of an empty finish
/// (`replaceEmpty`) or instead of a failure (`replaceError`), followed by `.finished`.
///
/// Apple's rules for the pair, kept here:
/// - Downstream's requests go upstream while it runs. `replaceEmpty` also asks upstream for
///   `.unlimited` as soon as downstream has the subscription (so values then pass through
///   whatever downstream asked for); `replaceError` passes on downstream's demand only.
///   Which one a member does is its `requestsUnlimitedOnSubscription`.
/// - The fallback goes out only against demand: at the end, the outstanding demand is
///   `requested + returned - delivered` (`delivered` and `returned` are counted by the
///   upstream side alone, without a lock, since upstream events are serialised); with none
///   outstanding the fallback waits for the next request. A failure `replaceEmpty` does not
///   replace, and a finish after values, go at once.
/// - Values and completions before the upstream subscription, or after the end, are ignored
///   (`receive(_:)` returns `.none`); a second subscription is cancelled.
/// - `cancel()` before the upstream subscription does nothing (a later one is accepted);
///   after it, `cancel()` cancels upstream once, and `request(_:)` after the end or a cancel
///   does nothing. `request(.none)` traps.
/// - `replaceError` counts the demand it passes upstream: a value that arrives with none
///   outstanding (`requested + returned - delivered` is zero) is a broken contract and traps,
///   as Apple's does. `replaceEmpty`, which asks upstream for `.unlimited` itself, does not
///   count. Which one a member does is its `trapsOnValueBeyondDemand`.
/// - The subscription keeps its downstream after completing or cancelling, as Apple's does,
///   and its mirror has no children.
@usableFromInline
internal final class ReducingFallbackSubscription<UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = UpstreamFailure

  @usableFromInline
  internal enum Delivery {
    case live
    /// The fallback waits for demand.
    case holding
    /// The fallback is being handed downstream; `.finished` follows unless cancelled.
    case delivering
    case done
  }

  @usableFromInline
  internal enum Ending {
    case nothing
    case forward(Subscribers.Completion<Downstream.Failure>)
    case publishFallback
  }

  @usableFromInline internal let name: String
  @usableFromInline internal let downstream: Downstream
  @usableFromInline internal let fallback: Downstream.Input
  /// `nil` for `replaceError`, which never forwards a failure; otherwise how to forward one.
  @usableFromInline internal let convertFailure: ((UpstreamFailure) -> Downstream.Failure)?
  /// Whether upstream is asked for `.unlimited` once downstream has the subscription.
  @usableFromInline internal let requestsUnlimitedOnSubscription: Bool
  /// Whether a value with no outstanding demand traps (`replaceError`).
  @usableFromInline internal var trapsOnValueBeyondDemand: Bool { !requestsUnlimitedOnSubscription }

  // Touched only by upstream events (serialised).
  @exclusivity(unchecked) @usableFromInline internal var delivered = 0
  @exclusivity(unchecked) @usableFromInline internal var returned = Subscribers.Demand.none
  /// `true` until upstream's subscription is accepted and again once upstream ended.
  @exclusivity(unchecked) @usableFromInline internal var ignoresUpstream = true

  @usableFromInline internal let lock: BiasedLock

  // Guarded by `lock` (`@exclusivity(unchecked)` where the value path reads them: the lock
  // already serialises every access).
  /// Set by `cancel()` (any thread), read for each value.
  @exclusivity(unchecked) @usableFromInline internal var isCancelled = false
  @usableFromInline internal var upstream = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var delivery = Delivery.live
  @exclusivity(unchecked) @usableFromInline internal var requested = Subscribers.Demand.none

  @inlinable
  internal init(
    name: String, downstream: Downstream, fallback: Downstream.Input,
    requestsUnlimitedOnSubscription: Bool, convertFailure: ((UpstreamFailure) -> Downstream.Failure)?
  ) {
    lock = BiasedLock()
    self.name = name
    self.downstream = downstream
    self.fallback = fallback
    self.requestsUnlimitedOnSubscription = requestsUnlimitedOnSubscription
    self.convertFailure = convertFailure
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    guard lock.withLock({ upstream.accept(subscription) }) else {
      subscription.cancel()
      return
    }
    ignoresUpstream = false
    downstream.receive(subscription: self)
    if requestsUnlimitedOnSubscription {
      subscription.request(.unlimited)
    }
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    if ignoresUpstream { return .none }
    let (cancelled, requested) = lock.withLock { (isCancelled, self.requested) }
    if cancelled { return .none }
    if trapsOnValueBeyondDemand {
      confluencePrecondition(
        requested + returned - delivered > .none,
        "\(name): received a value with no outstanding demand (upstream sent more than was requested)")
    }
    delivered += 1
    let more = downstream.receive(input)
    returned += more
    return more
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    if ignoresUpstream { return }
    ignoresUpstream = true
    let forwarded: Subscribers.Completion<Downstream.Failure>?
    switch (completion, convertFailure) {
    case (.finished, nil):
      forwarded = .finished  // replaceError: a finish passes through
    case (.finished, _):
      forwarded = delivered > 0 ? .finished : nil  // replaceEmpty: replace an empty finish
    case (.failure(let error), let convert?):
      forwarded = .failure(convert(error))  // replaceEmpty: a failure passes through
    case (.failure, nil):
      forwarded = nil  // replaceError: replace the failure
    }
    let ending = lock.withLock { () -> Ending in
      _ = upstream.terminate()
      guard case .live = delivery else { return .nothing }
      if let forwarded {
        delivery = .done
        return .forward(forwarded)
      }
      if requested + returned - delivered > 0 {
        delivery = .delivering
        return .publishFallback
      }
      delivery = .holding
      return .nothing
    }
    switch ending {
    case .nothing: break
    case .forward(let completion): downstream.receive(completion: completion)
    case .publishFallback: publishFallback()
    }
  }

  /// Called with `delivery == .delivering` set by this thread.
  @inlinable
  internal func publishFallback() {
    _ = downstream.receive(fallback)
    let finishes = lock.withLock { () -> Bool in
      guard case .delivering = delivery else { return false }
      delivery = .done
      return true
    }
    if finishes {
      downstream.receive(completion: .finished)
    }
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    let (target, publishes) = lock.withLock { () -> (Subscription?, Bool) in
      switch delivery {
      case .live:
        requested += demand
        return (upstream.subscription, false)
      case .holding:
        delivery = .delivering
        return (nil, true)
      case .delivering, .done:
        return (nil, false)
      }
    }
    target?.request(demand)
    if publishes {
      publishFallback()
    }
  }

  @inlinable
  internal func cancel() {
    let target = lock.withLock { () -> SubscriptionStatus? in
      // As Apple's: a cancel before upstream subscribed is not remembered.
      if case .awaitingSubscription = upstream { return nil }
      delivery = .done
      isCancelled = true
      return upstream.take()
    }
    target?.cancelSubscription()
  }

  @usableFromInline
  internal var description: String { name }

  /// As Apple's: no children.
  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
