import Confluence

/// A subject that replays its latest values, and its completion, to each new subscriber,
/// then passes on live values.
///
/// `ReplaySubject` keeps the `bufferSize` most recent values. A new subscriber first gets
/// those (oldest first), then every value sent after it subscribed, then the completion. A
/// subscriber that arrives after the subject completed still gets the buffered values,
/// then the completion. With `bufferSize` 0 it behaves like `PassthroughSubject`, except
/// that values a subscriber has no demand for are never delivered either way.
///
/// ```swift
/// let subject = ReplaySubject<Int, Never>(bufferSize: 2)
/// subject.send(1)
/// subject.send(2)
/// subject.send(3)
/// let early = subject.sink { print("early", $0) }   // early 2, early 3
/// subject.send(4)                                   // early 4
/// subject.send(completion: .finished)
/// let late = subject.sink { print("late", $0) }     // late 3, late 4 (then finished)
/// ```
///
/// Back-pressure: demand is kept per subscriber. Values a subscriber has not asked for yet
/// wait for it, but at most `bufferSize` of them beyond its outstanding demand: when more
/// arrive, the oldest unrequested one is dropped, so a subscriber that asks later gets the
/// latest `bufferSize` values it missed — the same rule as the replay itself. The
/// completion is delivered after the values waiting for that subscriber. When used as a
/// subscriber (`publisher.subscribe(subject)`), it requests `.unlimited` from upstream.
///
/// Thread safety: ``send(_:)``, ``send(completion:)`` and subscribing may happen on any
/// thread. Every subscriber sees values in the order the sends took effect, one event at a
/// time; a value sent from inside a subscriber's `receive(_:)` is delivered to it after that
/// call returns. Cancel removes the subscriber and releases it and the values waiting for
/// it.
///
/// - Complexity: ``send(_:)`` is O(*n*) for *n* subscribers; memory is O(`bufferSize`) for
///   the subject plus O(`bufferSize`) per subscriber that is behind.
public final class ReplaySubject<Output, Failure: Error>: Subject {
  /// The most values kept for replay (and kept waiting for a subscriber without demand).
  public final let bufferSize: Int

  @usableFromInline internal let lock = Lock()

  // Guarded by `lock`.
  @usableFromInline internal var buffer = FIFOQueue<Output>()
  @usableFromInline internal var completion: Subscribers.Completion<Failure>?
  @usableFromInline internal var conduits: [ReplayConduitBase<Output, Failure>] = []

  /// Creates a replay subject that keeps the `bufferSize` most recent values.
  ///
  /// - Parameter bufferSize: The most values to replay to a new subscriber; zero or more.
  @inlinable
  public init(bufferSize: Int) {
    confluencePrecondition(bufferSize >= 0, "ReplaySubject: bufferSize must not be negative (got \(bufferSize))")
    self.bufferSize = bufferSize
  }

  /// Attaches `subscriber`: it receives a subscription described as `ReplaySubject`, then,
  /// as it requests them, the buffered values, later values and the completion.
  ///
  /// - Parameter subscriber: The subscriber to attach.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let conduit = ReplayConduit(subject: self, bufferSize: bufferSize, downstream: subscriber)
    lock.withLock {
      conduit.preload(buffer, completion: completion)
      if completion == nil {
        conduits.append(conduit)
      }
    }
    subscriber.receive(subscription: conduit)
    conduit.finishSubscribing()
  }

  /// Sends a value: keeps it for replay, and queues it for every subscriber.
  ///
  /// - Parameter value: The value to send. Ignored after the completion.
  @inlinable
  public func send(_ value: Output) {
    let targets = lock.withLock { () -> [ReplayConduitBase<Output, Failure>] in
      guard completion == nil else { return [] }
      buffer.append(value)
      if buffer.count > bufferSize {
        _ = buffer.popFirst()
      }
      for conduit in conduits {
        conduit.enqueue(value)
      }
      return conduits
    }
    for conduit in targets {
      conduit.deliverPending()
    }
  }

  /// Sends the completion to every subscriber (after the values waiting for it) and keeps
  /// it for later subscribers. Later sends are ignored.
  ///
  /// - Parameter completion: `.finished`, or `.failure` with the error.
  @inlinable
  public func send(completion: Subscribers.Completion<Failure>) {
    let targets = lock.withLock { () -> [ReplayConduitBase<Output, Failure>] in
      guard self.completion == nil else { return [] }
      self.completion = completion
      for conduit in conduits {
        conduit.enqueue(completion: completion)
      }
      defer { conduits = [] }
      return conduits
    }
    for conduit in targets {
      conduit.deliverPending()
    }
  }

  /// Requests `.unlimited` from an upstream this subject was subscribed to.
  ///
  /// - Parameter subscription: The upstream subscription.
  @inlinable
  public func send(subscription: Subscription) {
    subscription.request(.unlimited)
  }

  /// Forgets a cancelled subscriber.
  @inlinable
  internal func remove(_ conduit: ReplayConduitBase<Output, Failure>) {
    let removed = lock.withLock { () -> ReplayConduitBase<Output, Failure>? in
      guard let index = conduits.firstIndex(where: { $0 === conduit }) else { return nil }
      return conduits.remove(at: index)
    }
    withExtendedLifetime(removed) {}
  }
}

// All mutable state lives under `lock` (the subject's) or under each conduit's own lock, so
// the subject may be shared by threads that send and subscribe concurrently.
extension ReplaySubject: @unchecked Sendable {}
