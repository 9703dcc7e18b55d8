extension Publishers {
  /// A publisher that automatically connects to an upstream connectable publisher.
  ///
  /// This publisher calls ``ConnectablePublisher/connect()`` on the upstream
  /// ``ConnectablePublisher`` when first attached to by a subscriber, and cancels that
  /// connection when every subscriber has cancelled (a subscriber that simply completed
  /// keeps it, so a late subscriber to a finished upstream sees the completion instead of
  /// a new connection).
  ///
  /// ```swift
  /// let cancellable = Timer.publish(every: 1, on: .main, in: .default)
  ///   .autoconnect()
  ///   .sink { print($0) }
  /// ```
  ///
  /// Back-pressure: passes each subscriber's demand to the upstream connectable publisher.
  public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public final let upstream: Upstream

    @usableFromInline
    internal let lock = Lock()

    // Guarded by `lock`.
    @usableFromInline internal var subscriberCount = 0
    @usableFromInline internal var connection: Cancellable?
    @usableFromInline internal var isConnected = false

    /// Creates a publisher that automatically connects to an upstream connectable
    /// publisher.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let connects = lock.withLock { () -> Bool in
        subscriberCount += 1
        if isConnected { return false }
        isConnected = true
        return true
      }
      upstream.subscribe(AutoconnectSubscription(parent: self, downstream: subscriber))
      if connects {
        let made = upstream.connect()
        let stale = lock.withLock { () -> Cancellable? in
          // Everyone cancelled while we were connecting: drop the connection at once.
          guard isConnected, subscriberCount > 0 else { return made }
          connection = made
          return nil
        }
        stale?.cancel()
      }
    }

    /// A subscriber cancelled: disconnects when it was the last one.
    @inlinable
    internal func subscriberDidCancel() {
      let disconnect = lock.withLock { () -> Cancellable? in
        subscriberCount -= 1
        guard subscriberCount == 0 else { return nil }
        isConnected = false
        defer { connection = nil }
        return connection
      }
      disconnect?.cancel()
    }
  }
}

extension ConnectablePublisher {
  /// Automates the process of connecting or disconnecting from this connectable publisher.
  ///
  /// Use `autoconnect()` to simplify working with connectable publishers such as
  /// `Timer.TimerPublisher`:
  ///
  /// ```swift
  /// cancellable = Timer.publish(every: 1, on: .main, in: .default)
  ///   .autoconnect()
  ///   .sink { date in print("Date now: \(date)") }
  /// ```
  ///
  /// - Returns: A publisher which automatically connects to its upstream connectable
  ///   publisher.
  @inlinable
  public func autoconnect() -> Publishers.Autoconnect<Self> {
    Publishers.Autoconnect(upstream: self)
  }
}

/// Stands between an `Autoconnect` and one subscriber, to notice its cancel.
@usableFromInline
internal final class AutoconnectSubscription<Upstream: ConnectablePublisher, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomPlaygroundDisplayConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  @usableFromInline internal typealias Input = Upstream.Output
  @usableFromInline internal typealias Failure = Upstream.Failure

  @usableFromInline internal let parent: Publishers.Autoconnect<Upstream>
  @usableFromInline internal let downstream: Downstream
  @usableFromInline internal let lock = Lock()
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription
  /// Whether this subscriber has cancelled (it counts down the parent's subscribers once).
  @usableFromInline internal var isCancelled = false

  @inlinable
  internal init(parent: Publishers.Autoconnect<Upstream>, downstream: Downstream) {
    self.parent = parent
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
    downstream.receive(input)
  }

  // As Apple's (the conformance suite records it), the subscription is a thin relay: it
  // forwards every value and completion as it comes, and a completion does not end it —
  // the subscriber still counts towards the connection until it cancels, so the upstream
  // is disconnected when the last subscriber cancels, completed or not.

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  @inlinable
  internal func cancel() {
    let subscription = lock.withLock { () -> Subscription?? in
      if isCancelled { return nil }
      isCancelled = true
      return .some(status.subscription)
    }
    guard let subscription else { return }
    subscription?.cancel()
    parent.subscriberDidCancel()
  }

  /// The upstream subscription's description, as Apple's relay shows it.
  @usableFromInline internal var description: String {
    lock.withLock { status.subscription }.map { String(describing: $0) } ?? "Autoconnect"
  }

  // Not CustomReflectable, as Apple's relay is not.
  @usableFromInline internal var playgroundDescription: Any { description }
}
