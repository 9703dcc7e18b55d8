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

    /// Guarded by `lock`: whether a connection exists or is being made, and how many
    /// subscribers it serves.
    @exclusivity(unchecked) @usableFromInline
    internal var state = AutoconnectState.disconnected

    /// Creates a publisher that automatically connects to an upstream connectable
    /// publisher.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Subscribes `subscriber` to the upstream, connecting it if it is not connected.
    ///
    /// Subscribers may arrive on any thread: one of them connects, and every other joins
    /// that connection, also while it is being made, so upstream is connected once however
    /// many threads subscribe at the same moment (as `share()` promises). Apple's rule for a
    /// subscriber that arrives re-entrantly, on the connecting thread, during the first
    /// subscription is kept as the conformance suite records it: it connects again, and the
    /// connection made last is the one kept, with a count of one.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let me = AutoconnectState.currentThread
      let connects = lock.withLock { state.subscribe(on: me) }
      upstream._subscribeUpstream(AutoconnectSubscriber(parent: self, downstream: subscriber))
      guard connects else { return }
      let made = upstream.connect()
      lock.withLock { state.connected(made, on: me) }
    }

    /// One subscriber cancelled: the last one out disconnects.
    @inlinable
    internal func subscriberDidCancel() {
      lock.withLock { state.subscriberDidCancel() }?.cancel()
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
  public consuming func autoconnect() -> Publishers.Autoconnect<Self> {
    Publishers.Autoconnect(upstream: self)
  }
}

/// Stands between an `Autoconnect` and one subscriber, to notice its cancel.
