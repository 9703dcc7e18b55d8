/// A protocol indicating that an activity or action supports cancellation.
///
/// Calling ``cancel()`` frees up any allocated resources. It also stops side effects such
/// as timers, network access, or disk I/O. Cancelling is idempotent.
///
/// ```swift
/// let cancellable: Cancellable = subject.sink { print($0) }
/// cancellable.cancel()   // no more values are printed
/// ```
public protocol Cancellable {
  /// Cancel the activity.
  ///
  /// When implementing ``Cancellable`` in support of a custom publisher, implement
  /// `cancel()` to request that your publisher stop calling its downstream subscribers.
  /// Combine doesn't require that the publisher stop immediately, but the `cancel()` call
  /// should take effect quickly. Canceling should also eliminate any strong references it
  /// currently holds.
  func cancel()
}

extension Cancellable {
  /// Stores this cancellable instance in the specified collection.
  ///
  /// ```swift
  /// var cancellables: [AnyCancellable] = []
  /// publisher.sink { print($0) }.store(in: &cancellables)
  /// ```
  ///
  /// - Parameter collection: The collection in which to store this ``Cancellable``.
  @inlinable
  public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
    AnyCancellable(self).store(in: &collection)
  }

  /// Stores this cancellable instance in the specified set.
  ///
  /// - Parameter set: The set in which to store this ``Cancellable``.
  @inlinable
  public func store(in set: inout Set<AnyCancellable>) {
    AnyCancellable(self).store(in: &set)
  }
}
