import Confluence

extension Publishers {
  /// A publisher that turns every event of its upstream — each value and the completion —
  /// into a ``PublisherEvent`` value, and never fails.
  ///
  /// ```swift
  /// let cancellable = failingRequest.materialize().sink { event in
  ///   switch event {
  ///   case .output(let data): print("data: \(data)")
  ///   case .completion(.failure(let error)): print("failed: \(error)")
  ///   case .completion(.finished): print("done")
  ///   }
  /// }
  /// ```
  ///
  /// Back-pressure: passes demand through; the completion event also needs one unit of
  /// demand, and waits for it if downstream has none left when upstream completes.
  public struct Materialize<Upstream: Publisher>: Publisher {
    public typealias Output = PublisherEvent<Upstream.Output, Upstream.Failure>
    public typealias Failure = Never

    /// The publisher whose events are materialized.
    public let upstream: Upstream

    /// Creates a publisher that materializes the events of `upstream`.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
      upstream.subscribe(MaterializeSubscription<Upstream, S>(downstream: subscriber))
    }
  }
}

extension Publisher {
  /// Turns every event of this publisher into a ``PublisherEvent`` value: each output becomes
  /// `.output`, the completion becomes `.completion` (followed by `.finished`).
  ///
  /// See ``Publishers/Materialize``.
  @inlinable
  public consuming func materialize() -> Publishers.Materialize<Self> {
    Publishers.Materialize(upstream: self)
  }
}

/// The subscription of ``Publishers/Materialize``; shown as `Materialize`.
@usableFromInline
internal final class MaterializeSubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible
where Downstream.Input == PublisherEvent<Upstream.Output, Upstream.Failure>, Downstream.Failure == Never {
  @usableFromInline internal typealias Input = Upstream.Output
  @usableFromInline internal typealias Failure = Upstream.Failure

  @usableFromInline internal let downstream: Downstream
  @usableFromInline internal let lock = Lock()
  // Guarded by `lock`.
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var pendingCompletion: Subscribers.Completion<Upstream.Failure>?
  @usableFromInline internal var isDone = false

  @inlinable
  internal init(downstream: Downstream) {
    self.downstream = downstream
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    guard lock.withLock({ status.accept(subscription) }) else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    guard
      lock.withLock({ () -> Bool in
        guard !isDone else { return false }
        demand -= 1
        return true
      })
    else { return .none }
    let more = downstream.receive(.output(input))
    lock.withLock { demand += more }
    return more
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Upstream.Failure>) {
    let sendsNow = lock.withLock { () -> Bool in
      guard !isDone, pendingCompletion == nil else { return false }
      _ = status.terminate()
      if demand > 0 {
        isDone = true
        return true
      }
      pendingCompletion = completion
      return false
    }
    if sendsNow { finish(with: completion) }
  }

  @inlinable
  internal func finish(with completion: Subscribers.Completion<Upstream.Failure>) {
    _ = downstream.receive(.completion(completion))
    downstream.receive(completion: .finished)
  }

  @inlinable
  internal func request(_ more: Subscribers.Demand) {
    more.assertNonZero()
    let (upstream, completion) = lock.withLock { () -> (Subscription?, Subscribers.Completion<Upstream.Failure>?) in
      guard !isDone else { return (nil, nil) }
      demand += more
      if let pending = pendingCompletion {
        pendingCompletion = nil
        isDone = true
        return (nil, pending)
      }
      return (status.subscription, nil)
    }
    if let completion {
      finish(with: completion)
    } else {
      upstream?.request(more)
    }
  }

  @inlinable
  internal func cancel() {
    let upstream = lock.withLock { () -> Subscription? in
      isDone = true
      pendingCompletion = nil
      return status.terminate()
    }
    upstream?.cancel()
  }

  @usableFromInline internal var description: String { "Materialize" }
}
