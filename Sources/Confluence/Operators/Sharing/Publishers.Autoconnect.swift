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

    // Guarded by `lock`. `nil` while disconnected; otherwise the live connection and the
    // number of subscribers that have not cancelled yet.
    @usableFromInline internal var connection: (cancellable: Cancellable, subscribers: Int)?

    /// Creates a publisher that automatically connects to an upstream connectable
    /// publisher.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    // Apple's rules, as the conformance suite records them: a subscriber arriving while
    // connected joins the connection; one arriving while disconnected is subscribed first
    // and then connects. The connection is recorded only once `connect()` returns, so a
    // subscriber that arrives re-entrantly during that first subscription connects again
    // (and the later connection is the one kept, with a count of one).
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let joined = lock.withLock { () -> Bool in
        guard connection != nil else { return false }
        connection!.subscribers += 1
        return true
      }
      upstream.subscribe(AutoconnectSubscriber(parent: self, downstream: subscriber))
      if !joined {
        let made = upstream.connect()
        lock.withLock { connection = (made, 1) }
      }
    }

    /// One subscriber cancelled: the last one out disconnects.
    @inlinable
    internal func subscriberDidCancel() {
      let disconnect = lock.withLock { () -> Cancellable? in
        guard let current = connection else { return nil }
        if current.subscribers > 1 {
          connection!.subscribers -= 1
          return nil
        }
        connection = nil
        return current.cancellable
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
