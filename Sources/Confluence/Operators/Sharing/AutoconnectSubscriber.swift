/// What `Autoconnect` subscribes to its upstream for each downstream subscriber.
///
/// A thin relay, as Apple's is: every value, completion and subscription goes straight
/// through (a completion does not end it). The subscription the downstream receives is an
/// ``AutoconnectSubscription`` that stands for the upstream's own subscription (same
/// description and identity) and tells the parent when the subscriber cancels.
@usableFromInline
internal final class AutoconnectSubscriber<Upstream: ConnectablePublisher, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  @usableFromInline internal typealias Input = Upstream.Output
  @usableFromInline internal typealias Failure = Upstream.Failure

  @usableFromInline internal let parent: Publishers.Autoconnect<Upstream>
  @usableFromInline internal let downstream: Downstream

  @inlinable
  internal init(parent: Publishers.Autoconnect<Upstream>, downstream: Downstream) {
    self.parent = parent
    self.downstream = downstream
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    downstream.receive(subscription: AutoconnectSubscription(upstream: subscription, parent: parent))
  }

  /// Always inlined: a one-call value path (Benchmarks/README.md, "Long pipelines", point 7).
  @inlinable
  @inline(__always)
  internal func receive(_ input: Input) -> Subscribers.Demand {
    downstream.receive(input)
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }

  @usableFromInline internal var description: String { "Autoconnect" }

  @usableFromInline internal var customMirror: Mirror {
    Mirror(self, children: ["parent": parent, "downstream": downstream])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}

/// The subscription an `Autoconnect` subscriber receives: the upstream's subscription, as
/// far as anyone looking can tell (its description and `combineIdentifier` are the
/// upstream's, and it is not `CustomReflectable`), plus a note to the parent on the first
/// cancel so that the last subscriber out disconnects. Every cancel is passed on.
@usableFromInline
internal final class AutoconnectSubscription<Upstream: ConnectablePublisher>: Subscription,
  CustomStringConvertible, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal let upstream: Subscription
  @usableFromInline internal let parent: Publishers.Autoconnect<Upstream>
  @usableFromInline internal let lock = Lock()
  /// Whether `cancel()` has told the parent (guarded by `lock`): of any number of
  /// `cancel()` calls, on any threads, exactly one finds it `false` and tells the parent.
  /// A lock rather than an atomic exchange: a cancel is no benchmark row's per-value path.
  @usableFromInline @exclusivity(unchecked) internal var hasCancelled = false

  @inlinable
  internal init(upstream: Subscription, parent: Publishers.Autoconnect<Upstream>) {
    self.upstream = upstream
    self.parent = parent
  }

  @inlinable
  internal var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    upstream.request(demand)
  }

  @inlinable
  internal func cancel() {
    upstream.cancel()
    let isFirst = lock.withLock { () -> Bool in
      defer { hasCancelled = true }
      return !hasCancelled
    }
    if isFirst {
      parent.subscriberDidCancel()
    }
  }

  @usableFromInline internal var description: String { String(describing: upstream) }

  @usableFromInline internal var playgroundDescription: Any {
    (upstream as? CustomPlaygroundDisplayConvertible)?.playgroundDescription ?? description
  }
}
