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
/// first upstream subscription. Each value is counted under the lock (the downstream
/// reference it reads is released at completion and cancel, as Apple's retry releases
/// it); a new attempt is asked for the outstanding demand `requested + returned -
/// delivered`, counting values that reached it between the attempts. Attempts started while a subscribe call is still on the stack (an upstream
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
    case subscribeDownstream(Downstream)
    case request(Subscribers.Demand)
  }

  @usableFromInline
  internal enum FailureAction {
    case ignore
    case fail(Downstream)
    case resubscribe
  }

  @usableFromInline internal let upstream: Upstream


  /// `0` before the first subscription, `1` once it arrived, `2` (for good) once downstream
  /// completed or cancelled. Read for each value without the lock: as Apple's, a value
  /// before the first subscription traps, one after the end is ignored.
  @usableFromInline internal let lifecycle = Atomic<UInt8>(0)

  @usableFromInline internal let lock = Lock()

  // Guarded by `lock`.
  /// Released when the subscription ends (completion or cancel), as Apple's retry does.
  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var status = Status.awaiting
  @usableFromInline internal var remainingRetries: Int?
  @usableFromInline internal var requested = Subscribers.Demand.none
  /// Values delivered and demand downstream returned since `requested` was last settled.
  @usableFromInline internal var delivered = 0
  @usableFromInline internal var returned = Subscribers.Demand.none
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
        return downstream.map { .subscribeDownstream($0) } ?? .cancel
      }
      return .request(settleDemand())
    }
    switch action {
    case .cancel:
      subscription.cancel()
      return
    case .subscribeDownstream(let downstream):
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
    let live = lock.withLock { () -> Downstream? in
      guard let downstream else { return nil }
      // As Apple's, a value nobody asked for traps.
      precondition(requested + returned - delivered > 0, "Retry: the upstream sent a value it was not asked for")
      delivered += 1
      return downstream
    }
    guard let live else { return .none }
    let more = live.receive(input)
    // As Apple's: downstream's further demand is requested from the current attempt, not
    // returned (between attempts it is carried to the next one).
    if more > 0 {
      let attempt = lock.withLock { () -> Subscription? in
        returned += more
        if case .subscribed(let subscription) = status { return subscription }
        return nil
      }
      attempt?.request(more)
    }
    return .none
  }

  /// The demand still owed by upstream, made the new base of the count. Call with `lock`
  /// held.
  @inlinable
  internal func settleDemand() -> Subscribers.Demand {
    requested = requested + returned - delivered
    delivered = 0
    returned = .none
    return requested
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    guard case .failure = completion else {
      let live = lock.withLock { () -> Downstream? in
        switch status {
        case .subscribed:
          break
        case .awaiting where !hasSubscribedDownstream:
          break  // as Apple's, a finish before any subscription is passed on
        case .awaiting, .done:
          return nil
        }
        status = .done
        lifecycle.store(2, ordering: .releasing)
        return takeDownstream()
      }
      live?.receive(completion: completion)
      return
    }
    let action = lock.withLock { () -> FailureAction in
      guard case .subscribed = status else { return .ignore }
      if let remaining = remainingRetries {
        guard remaining > 0 else {
          status = .done
          lifecycle.store(2, ordering: .releasing)
          return takeDownstream().map { .fail($0) } ?? .ignore
        }
        remainingRetries = remaining - 1
      }
      status = .awaiting
      _ = settleDemand()
      if isSubscribing {
        needsResubscribe = true
        return .ignore
      }
      return .resubscribe
    }
    switch action {
    case .ignore: break
    case .fail(let downstream): downstream.receive(completion: completion)
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
        downstream = nil
        lifecycle.store(2, ordering: .releasing)
      }
      if case .subscribed(let subscription) = status { return subscription }
      return nil
    }
    target?.cancel()
  }

  /// Hands the downstream over for the last event and forgets it. Call with `lock` held.
  @inlinable
  internal func takeDownstream() -> Downstream? {
    defer { downstream = nil }
    return downstream
  }

  @usableFromInline
  internal var description: String { "Retry" }

  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
