@_spi(SwiftUI) import Observation
import Confluence

/// A publisher of a key path's value on an `@Observable` object: what Apple's
/// `publisher(for:options:)` gives for an `@objc dynamic` property through key-value
/// observing, for the Observation framework (which, unlike key-value observing, exists on
/// Linux).
///
/// Make one with ``Observation/Observable/observationPublisher(for:options:)``.
///
/// ```swift
/// @Observable final class TestObject {
///   var integerProperty = 0
/// }
/// let object = TestObject()
/// let subscription = object.observationPublisher(for: \.integerProperty)
///   .sink { print("integerProperty changes to \($0)") }
/// object.integerProperty = 100
/// object.integerProperty = 200
/// // integerProperty changes to 0
/// // integerProperty changes to 100
/// // integerProperty changes to 200
/// ```
///
/// With `.prior`, each change publishes the value before it and then the value after it;
/// without `.initial`, the value at subscription time is not published (see
/// ``ObservationOptions``).
///
/// Every change is seen — the observation stays installed from subscription to cancel, so
/// no change between two emissions is missed — and changes made on several threads reach
/// the subscriber one at a time. The subscription keeps the object alive until cancelled.
///
/// Back-pressure: a value is delivered only against outstanding demand and dropped
/// otherwise (nothing is buffered), as with key-value observing.
public struct ObservationPublisher<Root: Observable & AnyObject, Value>: Publisher {
  /// The kind of values published by this publisher: the key path's values.
  public typealias Output = Value

  /// The kind of errors this publisher might publish: it never fails.
  public typealias Failure = Never

  /// The observed object.
  public let object: Root

  /// The observed key path.
  public let keyPath: KeyPath<Root, Value>

  /// Which values are published besides each new value.
  public let options: ObservationOptions

  /// Creates a publisher of `keyPath`'s values on `object`.
  ///
  /// - Parameters:
  ///   - object: The observed object.
  ///   - keyPath: The key path to observe.
  ///   - options: `.initial` to publish the current value first, `.prior` to publish each
  ///     change's previous value before its new one.
  public init(object: Root, keyPath: KeyPath<Root, Value>, options: ObservationOptions = [.initial]) {
    self.object = object
    self.keyPath = keyPath
    self.options = options
  }

  /// Attaches `subscriber` and starts observing.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
    let subscription = ObservationSubscription(
      object: object, keyPath: keyPath, prior: options.contains(.prior), downstream: AnySubscriber(subscriber))
    let current = subscription.startObserving()
    subscriber.receive(subscription: subscription)
    if options.contains(.initial) {
      subscription.push(current)
    }
  }
}

extension Observable where Self: AnyObject {
  /// Returns a publisher of a key path's values on this `@Observable` object.
  ///
  /// ```swift
  /// let subscription = object.observationPublisher(for: \.integerProperty, options: [.prior])
  ///   .sink { print("integerProperty changes to \($0)") }
  /// object.integerProperty = 100
  /// object.integerProperty = 200
  /// // integerProperty changes to 0
  /// // integerProperty changes to 100
  /// // integerProperty changes to 100
  /// // integerProperty changes to 200
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The key path to observe.
  ///   - options: `[.initial]` by default; see ``ObservationOptions``.
  /// - Returns: A publisher of the key path's values.
  public func observationPublisher<Value>(
    for keyPath: KeyPath<Self, Value>, options: ObservationOptions = [.initial]
  ) -> ObservationPublisher<Self, Value> {
    ObservationPublisher(object: self, keyPath: keyPath, options: options)
  }
}
