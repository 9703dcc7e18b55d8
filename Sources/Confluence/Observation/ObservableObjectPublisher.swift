/// A publisher that publishes changes from observable objects.
///
/// It is the default ``ObservableObject/objectWillChange-385ma``
/// publisher of an ``ObservableObject``: every `@Published` property of the object calls ``send()`` just
/// before its value changes. You can also call ``send()`` yourself, for changes to state
/// that is not `@Published`:
///
/// ```swift
/// final class Model: ObservableObject {
///   let objectWillChange = ObservableObjectPublisher()
///   var count = 0 {
///     willSet { objectWillChange.send() }
///   }
/// }
/// ```
///
/// It never completes. Back-pressure: as Apple's, demand is only a switch: a subscriber
/// receives no signal until it has requested something, then every signal, whatever
/// amount it requested.
///
/// Thread safety: ``send()`` and subscribing may happen on any thread; one subscriber never
/// receives two signals at once.
public final class ObservableObjectPublisher: Publisher {
  public typealias Output = Void
  public typealias Failure = Never

  @usableFromInline
  internal let storage: SubjectStorage<Void, Never>

  /// Creates an observable object publisher instance.
  ///
  /// ```swift
  /// let objectWillChange = ObservableObjectPublisher()
  /// ```
  @inlinable
  public init() {
    storage = SubjectStorage(kind: .observableObjectPublisher)
  }

  /// Attaches the specified subscriber; it receives a subscription described as
  /// `ObservableObjectPublisher`.
  ///
  /// - Parameter subscriber: The subscriber to attach.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
    storage.receive(subscriber: subscriber, parent: self)
  }

  /// Sends the changed value to the downstream subscriber.
  ///
  /// ```swift
  /// objectWillChange.send()
  /// ```
  ///
  /// May be called from any thread.
  @inlinable
  public func send() {
    storage.sendWithoutCurrentValue(())
  }
}

// All mutable state lives in `storage` and is only touched under its lock.
extension ObservableObjectPublisher: @unchecked Sendable {}
