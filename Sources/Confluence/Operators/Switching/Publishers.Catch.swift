extension Publishers {
  /// A publisher that handles errors from an upstream publisher by replacing the failed
  /// publisher with another publisher.
  ///
  /// Values and a `.finished` completion from upstream pass through. When upstream fails,
  /// `handler` turns the error into a new publisher, and the downstream subscriber
  /// continues with that publisher's values and completion; the original upstream is done.
  ///
  /// ```swift
  /// let cancellable = failingPublisher
  ///   .catch { _ in Just("placeholder") }
  ///   .sink { print($0) }
  /// ```
  ///
  /// Back-pressure: passes demand to upstream; on failure, subscribes to the handler's
  /// publisher and requests from it the demand downstream asked for and has not received.
  /// As Apple's, an upstream value before the subscription or beyond the demand traps, as
  /// does an upstream completing again after it failed.
  @_eagerMove
  public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
  where Upstream.Output == NewPublisher.Output {
    public typealias Output = Upstream.Output
    public typealias Failure = NewPublisher.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// A closure that accepts the upstream failure as input and returns a publisher to
    /// replace the upstream publisher.
    public let handler: (Upstream.Failure) -> NewPublisher

    /// Creates a publisher that handles errors from an upstream publisher by replacing the
    /// failed publisher with another publisher.
    ///
    /// - Parameters:
    ///   - upstream: The publisher that this publisher receives elements from.
    ///   - handler: A closure that accepts the upstream failure as input and returns a
    ///     publisher to replace the upstream publisher.
    @inlinable
    public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
      self.upstream = upstream
      self.handler = handler
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let handler = self.handler
      let subscription = SwitchingSubscription<Upstream, NewPublisher, S>(
        name: "Catch",
        downstream: subscriber,
        decide: { completion in
          switch completion {
          case .finished: return .complete(.finished)
          case .failure(let error): return .switchTo(handler(error))
          }
        },
        convertSecondFailure: { $0 })
      upstream.subscribe(subscription)
    }
  }
}

extension Publisher {
  /// Handles errors from an upstream publisher by replacing it with another publisher.
  ///
  /// Use `catch()` to replace an error from an upstream publisher with a new publisher.
  /// Once upstream fails, `catch` does not take further values from it: the pipeline
  /// continues with the replacement, and completes when the replacement does.
  ///
  /// ```swift
  /// struct SimpleError: Error {}
  /// let numbers = [5, 4, 3, 2, 1, 0, 9, 8, 7, 6]
  /// cancellable = numbers.publisher
  ///   .tryLast(where: {
  ///     guard $0 != 0 else { throw SimpleError() }
  ///     return true
  ///   })
  ///   .catch { error in Just(-1) }
  ///   .sink { print("\($0)") }
  /// // Prints: "-1"
  /// ```
  ///
  /// Back-pressure: carries the outstanding downstream demand over to the replacement.
  ///
  /// - Parameter handler: A closure that accepts the upstream failure as input and
  ///   returns a publisher to replace the upstream publisher.
  /// - Returns: A publisher that handles errors from an upstream publisher by replacing the
  ///   failed publisher with another publisher.
  @inlinable
  public consuming func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P) -> Publishers.Catch<Self, P>
  where Output == P.Output {
    Publishers.Catch(upstream: self, handler: handler)
  }
}
