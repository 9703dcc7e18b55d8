/// A publisher that exposes its elements as a throwing asynchronous sequence.
///
/// `AsyncThrowingPublisher` conforms to `AsyncSequence`, which allows callers to receive
/// elements with the `for`-`try`-`await`-`in` syntax, rather than attaching a
/// ``Subscriber``. If the upstream publisher terminates with an error, the iteration throws
/// it. Get one from the ``Publisher/values-ggtp`` property of a publisher that can fail.
///
/// ```swift
/// let url = URL(string: "http://127.0.0.1:8080/v0/topstories.json")!
/// for try await (data, _) in URLSession.shared.dataTaskPublisher(for: url).values {
///   print(data.count)
/// }
/// ```
///
/// Back-pressure: one element at a time — each call to the iterator's `next()` requests
/// `.max(1)`. Cancelling the task that iterates cancels the subscription; so does leaving
/// the loop early.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
  /// The type of element produced by this asynchronous sequence.
  public typealias Element = P.Output

  /// The iterator that produces elements of the asynchronous publisher sequence.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline
    internal let lifetime: AsyncValuesLifetime<P.Output, P.Failure>

    @inlinable
    internal init(_ publisher: P) {
      let subscriber = AsyncValuesSubscriber<P.Output, P.Failure>()
      lifetime = AsyncValuesLifetime(subscriber)
      publisher.subscribe(subscriber)
    }

    /// Produces the next element in the sequence, `nil` once the publisher finished or the
    /// task was cancelled, or throws the publisher's failure.
    ///
    /// - Returns: The next published element, or `nil` if the publisher finished.
    @inlinable
    public mutating func next() async throws -> Element? {
      switch await lifetime.subscriber.next() {
      case .value(let value): return value
      case .failure(let error): throw error
      }
    }
  }

  @usableFromInline
  internal let publisher: P

  /// Creates a publisher that exposes elements received from an upstream publisher as a
  /// throwing asynchronous sequence.
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
