/// The subscription behind `replaceEmpty(with:)` and `replaceError(with:)`: passes values
/// through, and at the end publishes one fallback value instead of an empty finish
/// (`replaceEmpty`) or instead of a failure (`replaceError`), followed by `.finished`.
///
/// The fallback goes out only against demand: at the end, the outstanding demand is
/// `requested + returned - delivered` (`delivered` and `returned` are counted by the
/// upstream side alone, without a lock, since upstream events are serialised); with none
/// outstanding the fallback waits for the next request.
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

  // Touched only by upstream events (serialised).
  @usableFromInline internal var delivered = 0
  @usableFromInline internal var returned = Subscribers.Demand.none

  @usableFromInline internal let lock = Lock()

  // Guarded by `lock`.
  @usableFromInline internal var upstream = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var delivery = Delivery.live
  @usableFromInline internal var requested = Subscribers.Demand.none

  @inlinable
  internal init(
    name: String, downstream: Downstream, fallback: Downstream.Input,
    convertFailure: ((UpstreamFailure) -> Downstream.Failure)?
  ) {
    self.name = name
    self.downstream = downstream
    self.fallback = fallback
    self.convertFailure = convertFailure
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    guard lock.withLock({ upstream.accept(subscription) }) else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    delivered += 1
    let more = downstream.receive(input)
    returned += more
    return more
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<UpstreamFailure>) {
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
    let target = lock.withLock { () -> Subscription? in
      delivery = .done
      return upstream.terminate()
    }
    target?.cancel()
  }

  @usableFromInline
  internal var description: String { name }

  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
