import CConfluenceSystem

/// The registry of enabled `_Introspection` objects and the stand-ins through which they
/// watch pipelines (the role of Apple's `DebugHook`).
@usableFromInline
internal enum DebugHook {
  /// The enabled introspections, in the order they were enabled (guarded by its lock).
  private final class Registry: @unchecked Sendable {
    // @unchecked Sendable: `enabled` is only read and written inside `lock.withLock`.
    let lock = Lock()
    var enabled: [_Introspection] = []
  }

  private static let registry = Registry()

  /// Whether `subscribe(_:)` must take the slow, reporting path.
  @inlinable
  @inline(__always)
  internal static var isActive: Bool {
    confluence_debug_hook_is_active()
  }

  internal static func enable(_ introspection: _Introspection) {
    registry.lock.withLock {
      if !registry.enabled.contains(where: { $0 === introspection }) {
        registry.enabled.append(introspection)
      }
      confluence_debug_hook_set_active(true)
    }
  }

  internal static func disable(_ introspection: _Introspection) {
    let removed = registry.lock.withLock { () -> _Introspection? in
      guard let index = registry.enabled.firstIndex(where: { $0 === introspection }) else { return nil }
      defer { confluence_debug_hook_set_active(!registry.enabled.isEmpty) }
      return registry.enabled.remove(at: index)
    }
    withExtendedLifetime(removed) {}  // released outside the lock
  }

  internal static func isEnabled(_ introspection: _Introspection) -> Bool {
    registry.lock.withLock { registry.enabled.contains(where: { $0 === introspection }) }
  }

  /// The introspections enabled now, to report one event to (outside the lock).
  @usableFromInline
  internal static var enabled: [_Introspection] {
    registry.lock.withLock { registry.enabled }
  }

  /// `publisher.subscribe(subscriber)` while some introspection is enabled: reports the
  /// subscribe and attaches a watching stand-in in place of `subscriber` (unless it is one
  /// already, when it is reported as an `AnySubscriber`).
  @usableFromInline
  internal static func subscribe<Upstream: Publisher, Downstream: Subscriber>(
    _ publisher: Upstream, _ subscriber: Downstream
  ) where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {
    if subscriber is IntrospectionWatching
      || (subscriber as? IntrospectionWatchingCarrier)?.carriesIntrospectionWatcher == true
    {
      let reported = AnySubscriber(subscriber)
      for introspection in enabled { introspection.willReceive(publisher: publisher, subscriber: reported) }
      publisher.receive(subscriber: subscriber)
      for introspection in enabled { introspection.didReceive(publisher: publisher, subscriber: reported) }
      return
    }
    for introspection in enabled { introspection.willReceive(publisher: publisher, subscriber: subscriber) }
    publisher.receive(subscriber: IntrospectionSubscriber(subscriber))
    for introspection in enabled { introspection.didReceive(publisher: publisher, subscriber: subscriber) }
  }
}

/// Marks the stand-ins `DebugHook` attaches, so that a watched subscriber passed on to
/// another `subscribe(_:)` is not wrapped twice.
internal protocol IntrospectionWatching {}

/// An `AnySubscriber`, which may wrap such a stand-in (an `AnyPublisher` hands its wrapped
/// publisher the subscriber erased).
internal protocol IntrospectionWatchingCarrier {
  var carriesIntrospectionWatcher: Bool { get }
}

/// Stands in for a subscriber that subscribed while an introspection was enabled: reports
/// each event to the introspections enabled at that moment and forwards it. It has the
/// subscriber's `combineIdentifier` and `description`, and hands the subscriber a
/// forwarding stand-in of its subscription.
internal final class IntrospectionSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
  IntrospectionWatching
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  let downstream: Downstream

  init(_ downstream: Downstream) {
    self.downstream = downstream
  }

  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  var description: String { String(describing: downstream) }

  func receive(subscription: Subscription) {
    let watched = subscription is IntrospectionWatching ? subscription : IntrospectionSubscription(subscription)
    for introspection in DebugHook.enabled {
      introspection.willReceive(subscriber: downstream, subscription: subscription)
    }
    downstream.receive(subscription: watched)
    for introspection in DebugHook.enabled {
      introspection.didReceive(subscriber: downstream, subscription: subscription)
    }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    for introspection in DebugHook.enabled { introspection.willReceive(subscriber: downstream, input: input) }
    let demand = downstream.receive(input)
    for introspection in DebugHook.enabled {
      introspection.didReceive(subscriber: downstream, input: input, resultingDemand: demand)
    }
    return demand
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    for introspection in DebugHook.enabled { introspection.willReceive(subscriber: downstream, completion: completion) }
    downstream.receive(completion: completion)
    for introspection in DebugHook.enabled { introspection.didReceive(subscriber: downstream, completion: completion) }
  }
}

/// Stands in for the subscription of a watched subscriber: reports requests and cancels to
/// the introspections enabled at that moment and forwards them. It has the subscription's
/// `combineIdentifier` and `description`.
internal final class IntrospectionSubscription: Subscription, CustomStringConvertible, IntrospectionWatching {
  let upstream: Subscription

  init(_ upstream: Subscription) {
    self.upstream = upstream
  }

  var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

  var description: String { String(describing: upstream) }

  func request(_ demand: Subscribers.Demand) {
    for introspection in DebugHook.enabled { introspection.willRequest(subscription: upstream, demand) }
    upstream.request(demand)
    for introspection in DebugHook.enabled { introspection.didRequest(subscription: upstream, demand) }
  }

  func cancel() {
    for introspection in DebugHook.enabled { introspection.willCancel(subscription: upstream) }
    upstream.cancel()
    for introspection in DebugHook.enabled { introspection.didCancel(subscription: upstream) }
  }
}
