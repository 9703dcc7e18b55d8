extension Publishers {
  /// A publisher that buffers a maximum number of items.
  ///
  /// Emits an array each time `count` elements have arrived; when upstream finishes, emits
  /// what is left (fewer than `count`, if any) and finishes. If upstream fails, the
  /// buffered elements are dropped and the failure is forwarded.
  ///
  /// ```swift
  /// let cancellable = (0...4).publisher
  ///   .collect(2)
  ///   .sink { print($0) }   // [0, 1], [2, 3], [4]
  /// ```
  ///
  /// Back-pressure: for each array downstream requests, asks upstream for `count`
  /// elements, so it buffers at most `count` elements.
  ///
  /// - Complexity: O(`count`) memory.
  @_eagerMove
  public struct CollectByCount<Upstream: Publisher>: Publisher {
    public typealias Output = [Upstream.Output]
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The maximum number of received elements to buffer before publishing.
    public let count: Int

    /// Creates a publisher that buffers a maximum number of items.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - count: The maximum number of received elements to buffer before publishing.
    ///     Must be at least 1.
    @inlinable
    public init(upstream: Upstream, count: Int) {
      self.upstream = upstream
      self.count = count
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(CollectByCountSubscription(downstream: subscriber, count: count))
    }
  }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

extension Publisher {
  /// Collects up to the specified number of elements, and then emits a single array of the
  /// collection.
  ///
  /// If the upstream publisher finishes before collecting the specified number of
  /// elements, the publisher sends an array of only the items it received. This may be
  /// fewer than `count` elements. If the upstream publisher fails with an error, this
  /// publisher forwards the error to the downstream receiver instead of sending its
  /// output.
  ///
  /// ```swift
  /// let numbers = (0...10)
  /// cancellable = numbers.publisher
  ///   .collect(5)
  ///   .sink { print("\($0)", terminator: " ") }
  /// // Prints "[0, 1, 2, 3, 4] [5, 6, 7, 8, 9] [10] "
  /// ```
  ///
  /// Back-pressure: asks upstream for `count` elements per array downstream requests.
  ///
  /// - Parameter count: The maximum number of received elements to buffer before
  ///   publishing. Must be at least 1.
  /// - Returns: A publisher that collects up to the specified number of elements, and then
  ///   publishes them as an array.
  @inlinable
  public consuming func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
    Publishers.CollectByCount(upstream: self, count: count)
  }
}

/// The subscription of ``Publishers/CollectByCount``; shown as `CollectByCount` by `print`.
///
/// The buffer is touched only by upstream events (serialised by contract); the lock guards
/// the upstream subscription and whether the subscription has ended, which each value reads
/// under it.
@usableFromInline
internal final class CollectByCountSubscription<Element, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == [Element] {
  @usableFromInline internal typealias Input = Element
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline internal let downstream: Downstream
  @usableFromInline internal let count: Int

  // Touched only by upstream events.
  @usableFromInline internal var buffer: [Element] = []

  @usableFromInline internal let lock: BiasedLock
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription  // guarded by `lock`
  /// Set at the first completion or a cancel (guarded by `lock`; `@exclusivity(unchecked)`:
  /// the lock already serialises every access, and the value path reads it).
  @exclusivity(unchecked) @usableFromInline internal var hasEnded = false
  @usableFromInline internal var isCancelled = false  // guarded by `lock`

  @inlinable
  internal init(downstream: Downstream, count: Int) {
    lock = BiasedLock()
    confluencePrecondition(
      count > 0, "collect(_:) was called with count \(count); collect at least 1 element per array")
    self.downstream = downstream
    self.count = count
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
  internal func receive(_ input: Element) -> Subscribers.Demand {
    if lock.withLock({ hasEnded }) { return .none }
    if buffer.isEmpty {
      buffer.reserveCapacity(count)
    }
    buffer.append(input)
    guard buffer.count == count else { return .none }
    let batch = buffer
    buffer = []
    return downstream.receive(batch) * count
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    // As Apple's: every completion is passed on (a second one, one after a cancel, one
    // before the subscription); the first also flushes a partial group, unless cancelled.
    let (flushes, released) = lock.withLock { () -> (Bool, SubscriptionStatus) in
      let first = !hasEnded
      hasEnded = true
      return (first && !isCancelled, status.take())
    }
    _fixLifetime(released)
    let rest = buffer
    buffer = []
    if flushes, case .finished = completion, !rest.isEmpty {
      _ = downstream.receive(rest)
    }
    downstream.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    lock.withLock { status }.requestAndRelease(demand * count)
  }

  @inlinable
  internal func cancel() {
    // A cancel before the subscription is forgotten, as Apple's is.
    lock.withLock { () -> Subscription? in
      guard case .subscribed = status else { return nil }
      isCancelled = true
      hasEnded = true
      return status.terminate()
    }?.cancel()
  }

  @usableFromInline
  internal var description: String { "CollectByCount" }

  @usableFromInline
  internal var customMirror: Mirror {
    let upstream = lock.withLock { status.subscription }
    return Mirror(
      self,
      children: ["downstream": downstream, "upstreamSubscription": upstream as Any, "buffer": buffer, "count": count])
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
