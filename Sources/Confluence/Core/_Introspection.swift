/// A tool that watches the events of Combine pipelines: subscribing, subscriptions,
/// values, completions, requests and cancels (Apple's public, underscored debugging hook).
///
/// Implement the methods you need (each has an empty default), then ``enable()`` the
/// object: from then on every ``Publisher/subscribe(_:)->()`` call is reported, and the
/// subscriber it attaches is watched for as long as it lives — its events are reported to
/// every introspection enabled at the time of each event. Calling
/// ``Publisher/receive(subscriber:)`` directly bypasses the hook.
///
/// ```swift
/// final class Logger: _Introspection {
///   func willReceive<S: Subscriber>(subscriber: S, input: S.Input) {
///     print("\(subscriber) will receive \(input)")
///   }
/// }
/// let logger = Logger()
/// logger.enable()
/// defer { logger.disable() }
/// let cancellable = [1, 2].publisher.map { $0 * 10 }.sink { _ in }
/// ```
///
/// To watch a subscriber, the hook attaches a stand-in that forwards every call to it and
/// has its `combineIdentifier` and `description`, and hands it a stand-in subscription that
/// forwards to the real one likewise. The hooks run on the thread of the event, outside any
/// lock of Confluence's. While no introspection is enabled, subscribing costs one atomic
/// load more, and pipelines built meanwhile nothing at all.
public protocol _Introspection: AnyObject {
  /// A publisher is about to receive a subscriber through `subscribe(_:)`.
  func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
  where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input

  /// A publisher has received a subscriber through `subscribe(_:)`.
  func didReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
  where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input

  /// A watched subscriber is about to receive its subscription.
  func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: Subscription)

  /// A watched subscriber has received its subscription.
  func didReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: Subscription)

  /// A watched subscriber is about to receive a value.
  func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input)

  /// A watched subscriber has received a value and returned `resultingDemand`.
  func didReceive<Downstream: Subscriber>(
    subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand)

  /// A watched subscriber is about to receive a completion.
  func willReceive<Downstream: Subscriber>(
    subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>)

  /// A watched subscriber has received a completion.
  func didReceive<Downstream: Subscriber>(
    subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>)

  /// A watched subscriber is about to request `demand` from its subscription.
  func willRequest(subscription: Subscription, _ demand: Subscribers.Demand)

  /// A watched subscriber has requested `demand` from its subscription.
  func didRequest(subscription: Subscription, _ demand: Subscribers.Demand)

  /// A watched subscriber is about to cancel its subscription.
  func willCancel(subscription: Subscription)

  /// A watched subscriber has cancelled its subscription.
  func didCancel(subscription: Subscription)
}

extension _Introspection {
  public func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
  where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {}

  public func didReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
  where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {}

  public func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: Subscription) {}

  public func didReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: Subscription) {}

  public func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input) {}

  public func didReceive<Downstream: Subscriber>(
    subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand
  ) {}

  public func willReceive<Downstream: Subscriber>(
    subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
  ) {}

  public func didReceive<Downstream: Subscriber>(
    subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
  ) {}

  public func willRequest(subscription: Subscription, _ demand: Subscribers.Demand) {}

  public func didRequest(subscription: Subscription, _ demand: Subscribers.Demand) {}

  public func willCancel(subscription: Subscription) {}

  public func didCancel(subscription: Subscription) {}

  /// Starts reporting events to this object. Enabling twice is the same as once.
  ///
  /// May be called from any thread.
  public func enable() {
    DebugHook.enable(self)
  }

  /// Stops reporting events to this object. Subscribers watched meanwhile stay watched
  /// (for other enabled introspections) but report nothing more here.
  ///
  /// May be called from any thread.
  public func disable() {
    DebugHook.disable(self)
  }

  /// Whether this object is enabled.
  public var isEnabled: Bool {
    DebugHook.isEnabled(self)
  }
}
