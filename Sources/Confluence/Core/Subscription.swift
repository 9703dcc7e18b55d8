/// A protocol representing the connection of a subscriber to a publisher.
///
/// Subscriptions are class-bound: they have identity, and cancelling one frees the
/// resources held by the publisher for that subscriber. Only the subscriber that received
/// a subscription may use it, and it may call ``request(_:)`` and ``Cancellable/cancel()`` from any
/// thread, including re-entrantly from inside ``Subscriber/receive(_:)``.
///
/// ```swift
/// func receive(subscription: Subscription) {
///   subscription.request(.max(1))   // one value at a time
/// }
/// ```
///
/// Back-pressure: demand is additive and saturates at ``Subscribers/Demand/unlimited``;
/// requesting `.none` is a programming error.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
  /// Tells a publisher that it may send more values to the subscriber.
  ///
  /// - Parameter demand: The number of additional values the subscriber is ready to
  ///   receive. Must be greater than zero.
  func request(_ demand: Subscribers.Demand)
}
