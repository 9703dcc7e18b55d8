import Confluence

extension Publisher where Failure == Never, Output: Sendable {
  /// The publisher's elements as an `AsyncStream`, buffered by the policy you choose.
  ///
  /// Apple's ``Confluence/Publisher/values-euqs`` asks for one element at a time, so a
  /// publisher that does not wait for demand (a subject, a timer) loses what it sends
  /// while the loop body runs. This variant asks for everything and buffers it:
  /// `.unbounded` loses nothing; `.bufferingNewest(n)` / `.bufferingOldest(n)` keep at most
  /// `n` waiting elements and drop the others — a choice made visibly, at the call site.
  ///
  /// ```swift
  /// let subject = PassthroughSubject<Int, Never>()
  /// let stream = subject.values(bufferingPolicy: .unbounded)
  /// subject.send(1); subject.send(2); subject.send(completion: .finished)
  /// for await value in stream { print(value) }   // 1, 2
  /// ```
  ///
  /// Back-pressure: requests `.unlimited`; the buffer policy decides what is kept. Ending
  /// the iteration (or dropping the stream) cancels the subscription.
  ///
  /// - Parameter bufferingPolicy: What to keep when elements arrive faster than the loop
  ///   takes them.
  /// - Returns: A stream of the publisher's elements, finishing when it finishes.
  public func values(bufferingPolicy: AsyncStream<Output>.Continuation.BufferingPolicy) -> AsyncStream<Output> {
    AsyncStream(bufferingPolicy: bufferingPolicy) { continuation in
      let cancellable = sink(
        receiveCompletion: { _ in continuation.finish() },
        receiveValue: { continuation.yield($0) })
      continuation.onTermination = { _ in cancellable.cancel() }
    }
  }
}

extension Publisher where Output: Sendable {
  /// The publisher's elements as an `AsyncThrowingStream`, buffered by the policy you
  /// choose; the stream throws the publisher's failure.
  ///
  /// See ``Confluence/Publisher/values(bufferingPolicy:)-(AsyncStream<Output>.Continuation.BufferingPolicy)``
  /// for the policies.
  ///
  /// ```swift
  /// for try await line in lines.values(bufferingPolicy: .bufferingNewest(100)) {
  ///   print(line)
  /// }
  /// ```
  ///
  /// Back-pressure: requests `.unlimited`; the buffer policy decides what is kept. Ending
  /// the iteration (or dropping the stream) cancels the subscription.
  ///
  /// - Parameter bufferingPolicy: What to keep when elements arrive faster than the loop
  ///   takes them.
  /// - Returns: A stream of the publisher's elements, finishing or throwing as it does.
  public func values(
    bufferingPolicy: AsyncThrowingStream<Output, any Error>.Continuation.BufferingPolicy
  ) -> AsyncThrowingStream<Output, any Error> {
    AsyncThrowingStream(bufferingPolicy: bufferingPolicy) { continuation in
      let cancellable = sink(
        receiveCompletion: { completion in
          switch completion {
          case .finished: continuation.finish()
          case .failure(let error): continuation.finish(throwing: error)
          }
        },
        receiveValue: { continuation.yield($0) })
      continuation.onTermination = { _ in cancellable.cancel() }
    }
  }
}
