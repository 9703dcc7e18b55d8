import Confluence

extension Publishers {
  /// A publisher that turns ``PublisherEvent`` values back into events: `.output` becomes a value,
  /// `.completion` completes (or fails) the publisher and cancels upstream.
  ///
  /// ```swift
  /// let restored = events.dematerialize()   // the original values and completion
  /// ```
  ///
  /// Back-pressure: passes demand through.
  public struct Dematerialize<Upstream: Publisher>: Publisher
  where Upstream.Output: PublisherEventConvertible, Upstream.Failure == Upstream.Output.Failure {
    public typealias Output = Upstream.Output.Output
    public typealias Failure = Upstream.Failure

    /// The publisher of events.
    public let upstream: Upstream

    /// Creates a publisher that dematerializes the events of `upstream`.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(DematerializeSubscription<Upstream, S>(downstream: subscriber))
    }
  }
}

extension Publisher where Output: PublisherEventConvertible, Failure == Output.Failure {
  /// Turns ``PublisherEvent`` values back into values and a completion. The inverse of
  /// ``Publisher/materialize()``.
  @inlinable
  public consuming func dematerialize() -> Publishers.Dematerialize<Self> {
    Publishers.Dematerialize(upstream: self)
  }
}

extension Publisher where Output: PublisherEventConvertible, Failure == Never {
  /// Turns ``PublisherEvent`` values from a publisher that cannot fail back into values and a
  /// completion (which may be a failure).
  @inlinable
  public consuming func dematerialize() -> Publishers.Dematerialize<Publishers.SetFailureTypeForEvents<Self>> {
    Publishers.Dematerialize(upstream: Publishers.SetFailureTypeForEvents(upstream: self))
  }
}

extension Publishers {
  /// Retypes a never-failing publisher of events to fail with the events' failure type,
  /// so that ``Publishers/Dematerialize`` can apply. It never actually fails.
  public struct SetFailureTypeForEvents<Upstream: Publisher>: Publisher
  where Upstream.Output: PublisherEventConvertible, Upstream.Failure == Never {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Output.Failure

    /// The never-failing publisher of events.
    public let upstream: Upstream

    /// Creates a publisher that retypes `upstream`'s failure to the events' failure type.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(NeverFailingAdapter<S>(downstream: subscriber))
    }
  }
}

/// Forwards a never-failing publisher's events to a subscriber of another failure type.
@usableFromInline
internal struct NeverFailingAdapter<Downstream: Subscriber>: Subscriber {
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Never

  @usableFromInline internal let downstream: Downstream

  @inlinable
  internal init(downstream: Downstream) {
    self.downstream = downstream
  }

  @inlinable internal var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }
  @inlinable internal func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }
  @inlinable internal func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }
  @inlinable internal func receive(completion: Subscribers.Completion<Never>) {
    downstream.receive(completion: .finished)
  }
}

/// The subscription of ``Publishers/Dematerialize``; shown as `Dematerialize`.
@usableFromInline
internal final class DematerializeSubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible
where
  Upstream.Output: PublisherEventConvertible, Upstream.Failure == Upstream.Output.Failure,
  Downstream.Input == Upstream.Output.Output, Downstream.Failure == Upstream.Failure
{
  @usableFromInline internal typealias Input = Upstream.Output
  @usableFromInline internal typealias Failure = Upstream.Failure

  @usableFromInline internal let downstream: Downstream
  @usableFromInline internal let lock = Lock()
  /// Guarded by `lock`.
  @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription

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
    switch input.event {
    case .output(let value):
      return downstream.receive(value)
    case .completion(let completion):
      finish(completion, cancelUpstream: true)
      return .none
    }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    finish(completion, cancelUpstream: false)
  }

  @inlinable
  internal func finish(_ completion: Subscribers.Completion<Failure>, cancelUpstream: Bool) {
    let (isLive, upstream) = lock.withLock { () -> (Bool, Subscription?) in
      guard case .subscribed = status else { return (false, nil) }
      return (true, status.terminate())
    }
    guard isLive else { return }
    if cancelUpstream { upstream?.cancel() }
    downstream.receive(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    lock.withLock { status }.requestAndRelease(demand)
  }

  @inlinable
  internal func cancel() {
    lock.withLock { status.terminate() }?.cancel()
  }

  @usableFromInline internal var description: String { "Dematerialize" }
}
