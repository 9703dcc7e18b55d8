/// A publisher that awaits subscription before running the supplied closure to create a
/// publisher for the new subscriber.
///
/// Use `Deferred` when creating the publisher is expensive, or has side effects that must
/// happen once per subscriber rather than once when the pipeline is built. A common use
/// is wrapping a ``Future``, whose work otherwise starts as soon as it is created:
///
/// ```swift
/// let deferred = Deferred {
///   Future<Int, Never> { promise in
///     print("working")
///     promise(.success(42))
///   }
/// }
/// // Nothing printed yet.
/// let cancellable = deferred.sink { print($0) }
/// // Prints: "working", then "42"
/// ```
///
/// The closure runs on the thread that subscribes, once per subscriber; the subscriber is
/// then attached directly to the publisher it returned, so subscriptions, values and
/// completions are exactly those of the created publisher.
///
/// Back-pressure: none of its own; demand goes straight to the created publisher.
@_eagerMove
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
  /// The kind of values published by this publisher.
  public typealias Output = DeferredPublisher.Output

  /// The kind of errors this publisher might publish.
  public typealias Failure = DeferredPublisher.Failure

  /// The closure to execute when this deferred publisher receives a subscription.
  ///
  /// The publisher returned by this closure immediately receives the incoming
  /// subscription.
  public let createPublisher: () -> DeferredPublisher

  /// Creates a deferred publisher.
  ///
  /// ```swift
  /// let fresh = Deferred { Just(Date()) }   // a new date for every subscriber
  /// ```
  ///
  /// - Parameter createPublisher: The closure to execute when calling `subscribe(_:)`.
  @inlinable
  public init(createPublisher: @escaping () -> DeferredPublisher) {
    self.createPublisher = createPublisher
  }

  /// Creates a publisher by calling ``createPublisher`` and attaches `subscriber` to it.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    createPublisher().subscribe(subscriber)
  }
}
