/// A protocol that declares a type that can receive input from a publisher.
///
/// A subscriber receives exactly one ``Subscription`` first, then values (never more than
/// it requested), then at most one completion. It requests values with
/// ``Subscription/request(_:)`` and may ask for more by returning a non-zero
/// ``Subscribers/Demand`` from ``receive(_:)``.
///
/// ```swift
/// final class Printer: Subscriber {
///   typealias Input = Int
///   typealias Failure = Never
///   func receive(subscription: Subscription) { subscription.request(.max(2)) }
///   func receive(_ input: Int) -> Subscribers.Demand { print(input); return .none }
///   func receive(completion: Subscribers.Completion<Never>) { print(completion) }
/// }
/// ```
///
/// Back-pressure: the demand a subscriber grants is additive; a publisher never sends more
/// values than the sum of everything requested so far.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
  /// The kind of values this subscriber receives.
  associatedtype Input

  /// The kind of errors this subscriber might receive. Use `Never` if it never fails.
  associatedtype Failure: Error

  /// Tells the subscriber that it has successfully subscribed to the publisher and may
  /// request items. Called exactly once, before anything else.
  ///
  /// - Parameter subscription: A subscription that represents the connection between
  ///   publisher and subscriber.
  func receive(subscription: Subscription)

  /// Tells the subscriber that the publisher has produced an element.
  ///
  /// - Parameter input: The published element.
  /// - Returns: How many *more* elements the subscriber expects to receive, added to the
  ///   demand it already granted.
  func receive(_ input: Input) -> Subscribers.Demand

  /// Tells the subscriber that the publisher has completed publishing, either normally
  /// or with an error.
  ///
  /// - Parameter completion: A ``Subscribers/Completion`` case indicating whether
  ///   publishing completed normally or with an error.
  func receive(completion: Subscribers.Completion<Failure>)

  /// Confluence's fast path for values that come as a run: not part of Combine's API, and
  /// not for use outside Confluence. The default does nothing; leave it to the default.
  ///
  /// A publisher that loops over its values on one thread with unlimited demand (a
  /// sequence) may offer them here before it sends them one by one through
  /// ``receive(_:)``. A subscriber that can take them faster pulls them with `next`, which
  /// returns `.some(value)` for a value, `.some(nil)` for a value that an operator on the
  /// way dropped (asked again only if the subscriber would still receive the next value),
  /// and `nil` once there are no more. Whatever the subscriber did not pull, the publisher
  /// then sends as usual; a subscriber that pulls nothing changes nothing. The subscriber
  /// calls `next` only where ``receive(_:)`` would have been called, and stops where a
  /// value-by-value delivery would have stopped, so that what anyone observes — the order
  /// of every closure's calls, what happens after a cancel or a completion — is the same.
  ///
  /// Operators whose subscriber passes the upstream's subscription through and delivers
  /// each value synchronously (`map`, `filter`, `scan`, …) pass the run on, transforming
  /// `next`; ``Subscribers/Sink`` takes it with two plain checks per value (one when `next`
  /// runs no user code) instead of its delivery gate.
  ///
  /// - Parameters:
  ///   - nextRunsNoUserCode: `next` calls no code but the standard library's (an array's
  ///     or a range's iterator): the subscriber need not check before asking it, since
  ///     asking once too often changes nothing anyone can see. `false` as soon as an
  ///     operator's closure is on the way.
  ///   - next: Produces the next value, a dropped value's placeholder, or `nil`.
  func _receiveRun(nextRunsNoUserCode: Bool, _ next: () -> Input??)
}

extension Subscriber {
  /// Takes no run: the publisher sends every value through ``receive(_:)``.
  ///
  /// - Parameters:
  ///   - nextRunsNoUserCode: Not used.
  ///   - next: Not called.
  @inlinable
  @inline(__always)
  public func _receiveRun(nextRunsNoUserCode: Bool, _ next: () -> Input??) {}
}

extension Subscriber where Input == Void {
  /// Tells the subscriber that a publisher of void elements is ready to receive further
  /// requests.
  ///
  /// Use `Void` inputs and outputs when you want to signal that an event has occurred, but
  /// don't need to send the event itself.
  ///
  /// - Returns: A ``Subscribers/Demand`` instance indicating how many more elements the
  ///   subscriber expects to receive.
  @inlinable
  public func receive() -> Subscribers.Demand {
    receive(())
  }
}
