/// A publisher that exposes its elements as an asynchronous sequence.
///
/// `AsyncPublisher` conforms to `AsyncSequence`, which allows callers to receive elements
/// with the `for`-`await`-`in` syntax, rather than attaching a ``Subscriber``. Get one from
/// the ``Publisher/values-euqs`` property of a publisher that never fails.
///
/// ```swift
/// let numbers: [Int] = [5, 4, 3, 2, 1, 0]
/// for await number in numbers.publisher.values {
///   print(number, terminator: " ")
/// }
/// // Prints: 5 4 3 2 1 0
/// ```
///
/// Back-pressure: one element at a time — each call to the iterator's `next()` requests
/// `.max(1)`, so nothing is buffered. Values a publisher sends without being asked for (a
/// `PassthroughSubject` sent to while the loop body runs) are dropped by the subject, as
/// with any subscriber without demand. Cancelling the task that iterates cancels the
/// subscription; so does leaving the loop early.
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
  /// The type of element produced by this asynchronous sequence.
  public typealias Element = P.Output

  /// The iterator that produces elements of the asynchronous publisher sequence.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline
    internal let lifetime: AsyncValuesLifetime<P.Output, Never>

    @inlinable
    internal init(_ publisher: P) {
      let subscriber = AsyncValuesSubscriber<P.Output, Never>()
      lifetime = AsyncValuesLifetime(subscriber)
      publisher.subscribe(subscriber)
    }

    /// Produces the next element in the sequence, or `nil` once the publisher finished or
    /// the task was cancelled.
    ///
    /// - Returns: The next published element, or `nil` if the publisher finished.
    @inlinable
    public mutating func next() async -> Element? {
      switch await lifetime.subscriber.next() {
      case .value(let value): return value
      case .failure: return nil  // unreachable: the failure type is Never
      }
    }
  }

  @usableFromInline
  internal let publisher: P

  /// Creates a publisher that exposes elements received from an upstream publisher as an
  /// asynchronous sequence.
  ///
  /// - Parameter publisher: An upstream publisher. The asynchronous publisher converts
  ///   elements received from this publisher into an asynchronous sequence.
  @inlinable
  public init(_ publisher: P) {
    self.publisher = publisher
  }

  /// Creates the asynchronous iterator that produces elements of this asynchronous
  /// sequence; it subscribes to the publisher.
  ///
  /// - Returns: An instance of the `AsyncIterator` type used to produce elements of the
  ///   asynchronous sequence.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(publisher)
  }
}
