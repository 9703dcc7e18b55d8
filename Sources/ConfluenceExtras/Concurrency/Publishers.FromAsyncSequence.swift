import Confluence

extension Publishers {
  /// A publisher of an `AsyncSequence`'s elements: it iterates the sequence only on demand,
  /// one element per unit of demand, and finishes (or fails) when the sequence does.
  ///
  /// Make one with ``_Concurrency/AsyncSequence/publisher``.
  ///
  /// ```swift
  /// let stream = AsyncStream<Int> { continuation in
  ///   for i in 1...3 { continuation.yield(i) }
  ///   continuation.finish()
  /// }
  /// let cancellable = stream.publisher.sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // 1, 2, 3, finished
  /// ```
  ///
  /// Each subscriber iterates the sequence in its own task, started when it subscribes;
  /// cancelling the subscription cancels the task.
  ///
  /// Back-pressure: the sequence is asked for its next element only while there is
  /// demand; with none, iteration waits.
  public struct FromAsyncSequence<Base: AsyncSequence & Sendable>: Publisher where Base.Element: Sendable {
    /// The kind of values published: the sequence's elements.
    public typealias Output = Base.Element

    /// The kind of errors this publisher might publish: what the sequence throws.
    public typealias Failure = any Error

    /// The sequence iterated for each subscriber.
    public let base: Base

    /// Creates a publisher of `base`'s elements.
    ///
    /// - Parameter base: The asynchronous sequence to iterate.
    public init(_ base: Base) {
      self.base = base
    }

    /// Attaches `subscriber` and starts iterating for it, on demand.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let subscription = AsyncProducerSubscription<Output>(
        name: "FromAsyncSequence", downstream: AnySubscriber(subscriber))
      subscriber.receive(subscription: subscription)
      let iterator = IteratorBox(base.makeAsyncIterator())
      subscription.start { try await iterator.next().map(Produced.element) ?? .end }
    }
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// A publisher of this sequence's elements, iterating only on demand.
  ///
  /// ```swift
  /// let cancellable = numbers.publisher   // numbers: some AsyncSequence<Int, Never>
  ///   .map { $0 * 2 }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: one element per unit of demand.
  public var publisher: Publishers.FromAsyncSequence<Self> {
    Publishers.FromAsyncSequence(self)
  }
}

/// Holds an async iterator for the one task that drives it.
final class IteratorBox<Iterator: AsyncIteratorProtocol>: @unchecked Sendable {
  // @unchecked Sendable: used only by the driving task, one `next()` at a time.
  private var iterator: Iterator

  init(_ iterator: Iterator) {
    self.iterator = iterator
  }

  func next() async throws -> Iterator.Element? {
    try await iterator.next()
  }
}
