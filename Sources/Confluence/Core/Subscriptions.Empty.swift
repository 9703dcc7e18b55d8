extension Subscriptions {
  /// Returns the “empty” subscription.
  ///
  /// Use the empty subscription when you need a ``Subscription`` that ignores requests and
  /// cancellation — for example a publisher that completes or fails at once:
  ///
  /// ```swift
  /// subscriber.receive(subscription: Subscriptions.empty)
  /// subscriber.receive(completion: .finished)
  /// ```
  ///
  /// Its description is `Empty`, which is what the `print` operator shows.
  public static var empty: Subscription { sharedEmptySubscription }
}

private let sharedEmptySubscription = EmptySubscription()

/// The subscription behind ``Subscriptions/empty``: requests and cancels do nothing.
internal final class EmptySubscription: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, Sendable
{
  func request(_ demand: Subscribers.Demand) {}
  func cancel() {}

  var description: String { "Empty" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
