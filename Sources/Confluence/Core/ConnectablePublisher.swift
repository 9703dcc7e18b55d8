/// A publisher that provides an explicit means of connecting and canceling publication.
///
/// Use a connectable publisher when you need to perform additional configuration or
/// setup prior to producing any elements: subscribers attach first, and the work starts
/// only when you call ``connect()``.
///
/// ```swift
/// let connectable = [1, 2, 3].publisher.makeConnectable()
/// let cancellable = connectable.sink { print($0) }
/// let connection = connectable.connect()   // prints 1, 2, 3
/// ```
public protocol ConnectablePublisher<Output, Failure>: Publisher {
  /// Connects to the publisher, allowing it to produce elements, and returns an instance
  /// with which to cancel publishing.
  ///
  /// - Returns: A ``Cancellable`` instance that you use to cancel publishing.
  func connect() -> Cancellable
}
