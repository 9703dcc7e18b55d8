import Synchronization

extension Publishers {
  /// A publisher that attempts to recreate its subscription to a failed upstream publisher.
  ///
  /// Values and a `.finished` completion pass through. When upstream fails, `Retry`
  /// subscribes to it again, up to `retries` times (or without limit when `retries` is
  /// `nil`); when the attempts are used up, the last failure goes downstream.
  ///
  /// ```swift
  /// let cancellable = flakyRequest
  ///   .retry(3)          // up to four attempts in all
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: passes demand to upstream (what downstream returns for a value is
  /// requested from upstream, not returned); a new attempt is asked for the demand
  /// downstream requested and has not yet received. A negative `retries` never runs out. An upstream that fails synchronously
  /// while being subscribed is retried in a loop, not by recursion.
  public struct Retry<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The maximum number of retry attempts to perform.
    ///
    /// If `nil`, this publisher attempts to reconnect with the upstream publisher an
    /// unlimited number of times.
    public let retries: Int?

    /// Creates a publisher that attempts to recreate its subscription to a failed upstream
    /// publisher.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives its elements.
    ///   - retries: The maximum number of retry attempts to perform. If `nil`, this
    ///     publisher attempts to reconnect with the upstream publisher an unlimited number
    ///     of times.
    @inlinable
    public init(upstream: Upstream, retries: Int?) {
      self.upstream = upstream
      self.retries = retries
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      RetrySubscription(upstream: upstream, retries: retries, downstream: subscriber).subscribeUpstream()
    }
  }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

extension Publisher {
  /// Attempts to recreate a failed subscription with the upstream publisher up to the
  /// number of times you specify.
  ///
  /// Use `retry(_:)` to try connecting to an upstream publisher again after a failed
  /// attempt. `retry(3)` makes at most four attempts: the original one and three retries.
  /// If every attempt fails, the last failure is passed downstream.
  ///
  /// ```swift
  /// let pub = (0...3).publisher
  ///   .tryMap { try check($0) }   // fails now and then
  ///   .retry(2)
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: each new attempt is asked for the demand downstream still has
  /// outstanding.
  ///
  /// - Parameter retries: The number of times to attempt to recreate the subscription.
  /// - Returns: A publisher that attempts to recreate its subscription to a failed upstream
  ///   publisher.
  @inlinable
  public func retry(_ retries: Int) -> Publishers.Retry<Self> {
    Publishers.Retry(upstream: self, retries: retries)
  }
}

/// The subscription of ``Publishers/Retry``; shown as `Retry` by `print`.
///
/// It subscribes itself to upstream once per attempt and hands itself downstream on the
/// first upstream subscription. Values pass without a lock; the demand they consume and
/// return is counted by the upstream side alone (serialised by contract), and at a failure
/// the outstanding demand `requested + returned - delivered` is carried to the next
/// attempt. Attempts started while a subscribe call is still on the stack (an upstream
/// that fails synchronously) are run by that call's loop, so the stack stays flat.
@usableFromInline
internal final class RetrySubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  @usableFromInline internal typealias Input = Upstream.Output
  @usableFromInline internal typealias Failure = Upstream.Failure

  @usableFromInline
  internal enum Status {
    /// Waiting for an attempt's subscription.
    case awaiting
    case subscribed(Subscription)
    /// Completed or cancelled.
    case done
  }

  @usableFromInline
  internal enum SubscriptionAction {
    case cancel
    case subscribeDownstream
    case request(Subscribers.Demand)
  }

  @usableFromInline
  internal enum FailureAction {
    case ignore
    case fail
    case resubscribe
  }

  @usableFromInline internal let upstream: Upstream
  @usableFromInline internal let downstream: Downstream

  // Touched only by upstream events (serialised), and reset under `lock` between attempts.
  @usableFromInline internal var delivered = 0
  @usableFromInline internal var returned = Subscribers.Demand.none
  /// Demand known to be outstanding for this attempt (a lower bound); looked up again
  /// under `lock` only when used up.
  @usableFromInline internal var budget = Subscribers.Demand.none

  /// `0` before the first subscription, `1` once it arrived, `2` (for good) once downstream
  /// completed or cancelled. Read for each value without the lock: as Apple's, a value
  /// before the first subscription traps, one after the end is ignored.
  @usableFromInline internal let lifecycle = Atomic<UInt8>(0)

  @usableFromInline internal let lock = Lock()

  // Guarded by `lock`.
  @usableFromInline internal var status = Status.awaiting
  @usableFromInline internal var remainingRetries: Int?
  @usableFromInline internal var requested = Subscribers.Demand.none
  @usableFromInline internal var hasSubscribedDownstream = false
  @usableFromInline internal var isSubscribing = false
  @usableFromInline internal var needsResubscribe = false

  @inlinable
  internal init(upstream: Upstream, retries: Int?, downstream: Downstream) {
    self.upstream = upstream
    // As Apple's, a negative count never runs out: it retries without limit.
    self.remainingRetries = retries.flatMap { $0 < 0 ? nil : $0 }
    self.downstream = downstream
  }

  /// Subscribes to upstream, again and again while attempts fail during the subscribe call.
  @inlinable
  internal func subscribeUpstream() {
    while true {
      lock.withLock {
        isSubscribing = true
        needsResubscribe = false
      }
      upstream.subscribe(self)
      let again = lock.withLock { () -> Bool in
        isSubscribing = false
        return needsResubscribe
      }
      if !again { return }
    }
  }

  // MARK: Subscriber

  @inlinable
  internal func receive(subscription: Subscription) {
    let action = lock.withLock { () -> SubscriptionAction in
      guard case .awaiting = status else { return .cancel }
      status = .subscribed(subscription)
      if !hasSubscribedDownstream {
        hasSubscribedDownstream = true
        lifecycle.store(1, ordering: .releasing)
        return .subscribeDownstream
      }
      return .request(requested)
    }
    switch action {
    case .cancel:
      subscription.cancel()
      return
    case .subscribeDownstream:
      downstream.receive(subscription: self)
    case .request(let demand):
      if demand > 0 {
        subscription.request(demand)
      }
    }
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    let lifecycle = lifecycle.load(ordering: .acquiring)
    guard lifecycle == 1 else {
      precondition(lifecycle != 0, "Retry: received a value before the upstream subscription")
      return .none
    }
    if budget == .none {
      // The known demand is used up: look again (slow path); as Apple's, a value nobody
      // asked for traps.
      budget = lock.withLock { requested + returned - delivered }
      precondition(budget > 0, "Retry: the upstream sent a value it was not asked for")
    }
    budget -= 1
    delivered += 1
    let more = downstream.receive(input)
    // As Apple's: downstream's further demand is requested, not returned.
    if more > 0 {
      returned += more
      budget += more
      currentAttempt()?.request(more)
    }
    return .none
  }

  /// The current attempt's subscription (looked up only when downstream returned demand).
  @inlinable
  internal func currentAttempt() -> Subscription? {
    lock.withLock {
      if case .subscribed(let subscription) = status { return subscription }
      return nil
    }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    guard case .failure = completion else {
      let isLive = lock.withLock { () -> Bool in
        switch status {
        case .subscribed:
          break
        case .awaiting where !hasSubscribedDownstream:
          break  // as Apple's, a finish before any subscription is passed on
        case .awaiting, .done:
          return false
        }
        status = .done
        lifecycle.store(2, ordering: .releasing)
        return true
      }
      if isLive {
        downstream.receive(completion: completion)
      }
      return
    }
    let action = lock.withLock { () -> FailureAction in
      guard case .subscribed = status else { return .ignore }
      if let remaining = remainingRetries {
        guard remaining > 0 else {
          status = .done
          lifecycle.store(2, ordering: .releasing)
          return .fail
        }
        remainingRetries = remaining - 1
      }
      status = .awaiting
      requested = requested + returned - delivered
      delivered = 0
      returned = .none
      budget = .none
      if isSubscribing {
        needsResubscribe = true
        return .ignore
      }
      return .resubscribe
    }
    switch action {
    case .ignore: break
    case .fail: downstream.receive(completion: completion)
    case .resubscribe: subscribeUpstream()
    }
  }

  // MARK: Subscription

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    let target = lock.withLock { () -> Subscription? in
      guard case .done = status else {
        requested += demand
        if case .subscribed(let subscription) = status { return subscription }
        return nil
      }
      return nil
    }
    target?.request(demand)
  }

  @inlinable
  internal func cancel() {
    let target = lock.withLock { () -> Subscription? in
      defer {
        status = .done
        lifecycle.store(2, ordering: .releasing)
      }
      if case .subscribed(let subscription) = status { return subscription }
      return nil
    }
    target?.cancel()
  }

  @usableFromInline
  internal var description: String { "Retry" }

  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
