/// The subscription shared by every reducing operator (`reduce`, `count`, `collect`,
/// `min`/`max`, `contains`, `allSatisfy`, `first(where:)`, `last(where:)`, and their `try`
/// forms). It stands between upstream and downstream, feeds each value to its
/// ``ReducingLogic``, and publishes at most one value and a completion.
///
/// Apple's rules for the family, all kept here:
/// - Upstream is asked for `.unlimited` as soon as it subscribes, right after downstream
///   received this subscription — not when downstream first requests.
/// - A result (or a bare finish, when there is no value to publish) waits until downstream
///   has requested something; a failure, upstream's or a thrown one, goes at once.
/// - An early end (`first`, `contains`, a thrown error) cancels upstream before downstream
///   hears of it.
/// - Values and completions that arrive before the upstream subscription, or after the end,
///   are ignored (`receive(_:)` returns `.none`); a second subscription is cancelled.
/// - `cancel()` before the upstream subscription does nothing: a subscription that arrives
///   later is accepted and asked for `.unlimited`. `cancel()` after that cancels upstream
///   once and drops a held result; `request(_:)` after the end does nothing.
/// - The subscription keeps its downstream after completing or cancelling, as Apple's does.
///
/// Threading: upstream events are serialised by contract, so `logic` and `ignoresUpstream`
/// are touched only by them, without the lock (no lock per element). `request(_:)` and
/// `cancel()` may come from any thread; what they share with the upstream side (the upstream
/// subscription, the delivery state and whether demand arrived) lives under `lock`.
/// Downstream and upstream are never called with the lock held.
@usableFromInline
internal final class ReducingSubscription<Logic: ReducingLogic, UpstreamFailure: Error, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Logic.Output, Downstream.Failure == Logic.Failure {
  @usableFromInline internal typealias Input = Logic.Input
  @usableFromInline internal typealias Failure = UpstreamFailure

  /// Where delivery to downstream stands (guarded by `lock`).
  @usableFromInline
  internal enum Delivery {
    /// Upstream is still running.
    case live
    /// Upstream ended; the result (`nil`: just `.finished`) waits for downstream demand.
    case holding(Logic.Output?)
    /// The result is being handed to downstream; `.finished` follows unless cancelled.
    case delivering
    /// Completed or cancelled.
    case done
  }

  @usableFromInline
  internal let downstream: Downstream

  @usableFromInline
  internal let convertFailure: (UpstreamFailure) -> Downstream.Failure

  /// The logic's starting result, for the mirror only.
  @usableFromInline
  internal let initial: Logic.Output?

  // Touched only by upstream events, which the contract serialises, so the runtime's
  // exclusivity checks (≈45% of reduce's time per element, measured with perf) are skipped.
  @exclusivity(unchecked) @usableFromInline internal var logic: Logic
  /// `true` until upstream's subscription is accepted and again once upstream ended (or the
  /// logic ended it): upstream events are then ignored.
  @exclusivity(unchecked) @usableFromInline internal var ignoresUpstream = true

  @usableFromInline
  internal let lock: BiasedLock

  // Guarded by `lock`.
  @usableFromInline internal var upstream = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var delivery = Delivery.live
  @usableFromInline internal var hasDemand = false

  @inlinable
  internal init(
    downstream: Downstream, logic: Logic, convertFailure: @escaping (UpstreamFailure) -> Downstream.Failure
  ) {
    lock = BiasedLock()
    self.downstream = downstream
    self.initial = logic.initial
    self.logic = logic
    self.convertFailure = convertFailure
  }

  // MARK: Subscriber (upstream side)

  @inlinable
  internal func receive(subscription: Subscription) {
    guard lock.withLock({ upstream.accept(subscription) }) else {
      subscription.cancel()
      return
    }
    ignoresUpstream = false
    downstream.receive(subscription: self)
    // As Apple's reducers: upstream is asked for everything once downstream has the
    // subscription, whatever downstream requests. (A downstream that cancelled meanwhile
    // makes this a request after cancel, which upstream ignores.)
    subscription.request(.unlimited)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    if ignoresUpstream { return .none }
    switch logic.reduce(input) {
    case .proceed:
      break
    case .finish(let output):
      ignoresUpstream = true
      conclude(with: output, cancellingUpstream: true)
    case .fail(let error):
      ignoresUpstream = true
      fail(with: error, cancellingUpstream: true)
    }
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    if ignoresUpstream { return }
    ignoresUpstream = true
    switch completion {
    case .finished:
      conclude(with: logic.finish(), cancellingUpstream: false)
    case .failure(let error):
      fail(with: convertFailure(error), cancellingUpstream: false)
    }
  }

  /// The result is known: publish it now if downstream asked already, else hold it.
  @inlinable
  internal func conclude(with output: Logic.Output?, cancellingUpstream: Bool) {
    let (subscription, publishes) = lock.withLock { () -> (Subscription?, Bool) in
      let subscription = upstream.terminate()
      guard case .live = delivery else { return (subscription, false) }
      if hasDemand {
        delivery = .delivering
        return (subscription, true)
      }
      delivery = .holding(output)
      return (subscription, false)
    }
    if cancellingUpstream {
      subscription?.cancel()
    }
    if publishes {
      publish(output)
    }
  }

  @inlinable
  internal func fail(with error: Downstream.Failure, cancellingUpstream: Bool) {
    let (subscription, isLive) = lock.withLock { () -> (Subscription?, Bool) in
      let subscription = upstream.terminate()
      guard case .live = delivery else { return (subscription, false) }
      delivery = .done
      return (subscription, true)
    }
    if cancellingUpstream {
      subscription?.cancel()
    }
    if isLive {
      downstream.receive(completion: .failure(error))
    }
  }

  /// Hands the result (if any) to downstream, then finishes unless downstream cancelled
  /// meanwhile. Called with `delivery == .delivering` set by this thread.
  @inlinable
  internal func publish(_ output: Logic.Output?) {
    if let output {
      _ = downstream.receive(output)
    }
    let finishes = lock.withLock { () -> Bool in
      guard case .delivering = delivery else { return false }
      delivery = .done
      return true
    }
    if finishes {
      downstream.receive(completion: .finished)
    }
  }

  // MARK: Subscription (downstream side)

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    let held = lock.withLock { () -> Logic.Output?? in
      hasDemand = true
      guard case .holding(let output) = delivery else { return nil }
      delivery = .delivering
      return .some(output)
    }
    if let output = held {
      publish(output)
    }
  }

  @inlinable
  internal func cancel() {
    let released = lock.withLock { () -> (SubscriptionStatus, Delivery)? in
      // As Apple's: a cancel before upstream subscribed is not remembered.
      if case .awaitingSubscription = upstream { return nil }
      defer { delivery = .done }
      return (upstream.take(), delivery)
    }
    released?.0.cancelSubscription()
    // A held result is released here, outside the lock.
  }

  // MARK: Descriptions

  @usableFromInline
  internal var description: String { Logic.name }

  @usableFromInline
  internal var customMirror: Mirror {
    let (result, status) = lock.withLock { () -> (Logic.Output?, SubscriptionStatus) in
      guard case .holding(let output) = delivery else { return (nil, upstream) }
      return (output, upstream)
    }
    return Mirror(
      self, children: Logic.mirrorChildren(downstream: downstream, result: result, initial: initial, status: status))
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}

extension ReducingSubscription where UpstreamFailure == Downstream.Failure {
  /// A reducing subscription whose failure passes through unchanged.
  @inlinable
  internal convenience init(downstream: Downstream, logic: Logic) {
    self.init(downstream: downstream, logic: logic, convertFailure: { $0 })
  }
}
