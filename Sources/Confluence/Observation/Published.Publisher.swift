extension Published {
  /// A publisher for properties marked with the `@Published` attribute.
  ///
  /// You get one with the `$` operator on a `@Published` property:
  ///
  /// ```swift
  /// let cancellable = model.$name.sink { print("name will be \($0)") }
  /// ```
  ///
  /// It emits the property's current value when a subscriber first requests demand, then
  /// each new value as the property is about to change (before it changes). It never
  /// completes. `print` shows its subscriptions as `PublishedSubject`.
  ///
  /// Back-pressure: demand is kept per subscriber; after a change it had no demand for, a
  /// subscriber receives the value current when its demand arrives.
  @_eagerMove
  public struct Publisher: Confluence.Publisher {
    public typealias Output = Value
    public typealias Failure = Never

    @usableFromInline
    internal let box: PublishedSubject<Value>

    @inlinable
    internal init(box: PublishedSubject<Value>) {
      self.box = box
    }

    /// Attaches the specified subscriber to the property's publisher.
    ///
    /// - Parameter subscriber: The subscriber to attach.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
      box.receive(subscriber: subscriber)
    }
  }
}
