/// A publisher that performs type erasure by wrapping another publisher.
///
/// `AnyPublisher` is a concrete implementation of ``Publisher`` that has no significant
/// properties of its own, and passes through elements and completion values from its
/// upstream publisher.
///
/// Use `AnyPublisher` to wrap a publisher whose type has details you don’t want to expose
/// across API boundaries, such as different modules. Wrapping a ``Subject`` with
/// `AnyPublisher` also prevents callers from accessing its ``Subject/send(_:)`` method.
/// When you use type erasure this way, you can change the underlying publisher
/// implementation over time without affecting existing clients.
///
/// You can use Combine’s ``Publisher/eraseToAnyPublisher()`` operator to wrap a publisher
/// with `AnyPublisher`:
///
/// ```swift
/// func evenNumbers() -> AnyPublisher<Int, Never> {
///   (1...10).publisher.filter { $0.isMultiple(of: 2) }.eraseToAnyPublisher()
/// }
/// ```
///
/// Its `description` is `AnyPublisher`. Subscribers attach straight to the wrapped
/// publisher, so the subscriptions they receive are the wrapped publisher's.
///
/// Back-pressure: none of its own; demand goes straight to the wrapped publisher.
@frozen
public struct AnyPublisher<Output, Failure: Error>: CustomStringConvertible, CustomPlaygroundDisplayConvertible {
  @usableFromInline
  internal let box: AnyPublisherBox<Output, Failure>

  /// Creates a type-erasing publisher to wrap the provided publisher.
  ///
  /// Wrapping an `AnyPublisher` returns it unchanged rather than wrapping it twice.
  ///
  /// ```swift
  /// let erased = AnyPublisher(Just(1))
  /// ```
  ///
  /// - Parameter publisher: A publisher to wrap with a type-eraser.
  @inlinable
  public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
    if let erased = publisher as? AnyPublisher<Output, Failure> {
      self = erased
    } else {
      box = PublisherBox(publisher)
    }
  }

  /// `AnyPublisher`
  public var description: String { "AnyPublisher" }

  /// The same as ``description``.
  public var playgroundDescription: Any { description }
}

extension AnyPublisher: Publisher {
  /// Attaches `subscriber` to the wrapped publisher.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    box.receive(subscriber: subscriber)
  }
}

extension Publisher {
  /// Wraps this publisher with a type eraser.
  ///
  /// Use `eraseToAnyPublisher()` to expose an instance of ``AnyPublisher`` to the
  /// downstream subscriber, rather than this publisher’s actual type. This form of type
  /// erasure preserves abstraction across API boundaries, such as different modules.
  ///
  /// ```swift
  /// public class TypeWithSubject {
  ///   public let publisher: some Publisher = PassthroughSubject<Int, Never>()
  /// }
  /// public class TypeWithErasedSubject {
  ///   public let publisher: some Publisher = PassthroughSubject<Int, Never>()
  ///     .eraseToAnyPublisher()
  /// }
  /// // Clients of TypeWithErasedSubject cannot call send(_:) on its publisher.
  /// ```
  ///
  /// Back-pressure: none of its own; demand goes straight to this publisher.
  ///
  /// - Returns: An ``AnyPublisher`` wrapping this publisher.
  @inlinable
  public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
    AnyPublisher(self)
  }
}

extension AnyPublisher {
  /// Returns this publisher unchanged: it is already type-erased.
  ///
  /// ```swift
  /// let erased = Just(1).eraseToAnyPublisher()
  /// let same = erased.eraseToAnyPublisher()   // no second wrapper
  /// ```
  ///
  /// - Returns: `self`.
  @inlinable
  public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
    self
  }
}

/// The abstract box behind ``AnyPublisher``: one virtual call per subscription.
@usableFromInline
internal class AnyPublisherBox<Output, Failure: Error> {
  @inlinable
  internal init() {}

  @usableFromInline
  internal func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    fatalError("AnyPublisherBox.receive(subscriber:) is abstract")
  }
}

/// Holds the wrapped publisher of an ``AnyPublisher``.
@usableFromInline
internal final class PublisherBox<Base: Publisher>: AnyPublisherBox<Base.Output, Base.Failure> {
  @usableFromInline
  internal let base: Base

  @inlinable
  internal init(_ base: Base) {
    self.base = base
    super.init()
  }

  @inlinable
  internal override func receive<S: Subscriber>(subscriber: S) where S.Input == Base.Output, S.Failure == Base.Failure {
    base.receive(subscriber: subscriber)
  }
}
