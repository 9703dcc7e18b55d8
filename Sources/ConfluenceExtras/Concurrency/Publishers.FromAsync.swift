import Confluence

extension Publishers {
  /// A publisher that runs an `async` closure and publishes its result, then finishes (or
  /// fails with the error it throws).
  ///
  /// ```swift
  /// let cancellable = Publishers.FromAsync { try await api.fetchUser(id: 7) }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.name) })
  /// ```
  ///
  /// The closure runs in a task started on the first request, once per subscriber (like
  /// `Deferred`); cancelling the subscription cancels the task, and nothing is delivered
  /// after.
  ///
  /// Back-pressure: runs only once demanded; publishes one value.
  public struct FromAsync<Output: Sendable>: Publisher {
    /// The kind of errors this publisher might publish: whatever the closure throws.
    public typealias Failure = any Error

    /// The closure whose result is published.
    public let operation: @Sendable () async throws -> Output

    /// Creates a publisher of `operation`'s result.
    ///
    /// - Parameter operation: The work to run, once per subscriber, on demand.
    public init(_ operation: @escaping @Sendable () async throws -> Output) {
      self.operation = operation
    }

    /// Attaches `subscriber`; the closure runs once it requests a value.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let subscription = AsyncProducerSubscription<Output>(name: "FromAsync", downstream: AnySubscriber(subscriber))
      subscriber.receive(subscription: subscription)
      let operation = self.operation
      subscription.start { .last(try await operation()) }
    }
  }
}
