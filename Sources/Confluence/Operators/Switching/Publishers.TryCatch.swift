extension Publishers {
  /// A publisher that handles errors from an upstream publisher by replacing the failed
  /// publisher with another publisher or producing a new error.
  ///
  /// Because this publisher's handler can throw an error, ``Publishers/TryCatch`` defines
  /// its `Failure` type as `Error`. This is different from ``Publishers/Catch``, which
  /// gets its failure type from the replacement publisher.
  ///
  /// ```swift
  /// let cancellable = primary
  ///   .tryCatch { error -> AnyPublisher<Data, URLError> in
  ///     guard error.networkUnavailableReason == .constrained else { throw error }
  ///     return fallback
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: passes demand to upstream; on failure, subscribes to the handler's
  /// publisher and requests from it the demand downstream asked for and has not received.
  /// As Apple's, an upstream value before the subscription or beyond the demand traps, as
  /// does an upstream completing again after it failed.
  @_eagerMove
  public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
  where Upstream.Output == NewPublisher.Output {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that accepts the upstream failure as input and either returns a publisher
    /// to replace the upstream publisher or throws an error.
    public let handler: (Upstream.Failure) throws -> NewPublisher

    /// Creates a publisher that handles errors from an upstream publisher by replacing the
    /// failed publisher with another publisher or by throwing an error.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives its elements.
    ///   - handler: A closure that accepts the upstream failure as input and either returns
    ///     a publisher to replace the upstream publisher. If this closure throws an error,
    ///     the publisher terminates with the thrown error.
    @inlinable
    public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
      self.upstream = upstream
      self.handler = handler
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let handler = self.handler
      let subscription = SwitchingSubscription<Upstream, NewPublisher, S>(
        name: "TryCatch",
        downstream: subscriber,
        decide: { completion in
          switch completion {
          case .finished:
            return .complete(.finished)
          case .failure(let error):
            do {
              return .switchTo(try handler(error))
            } catch {
              return .complete(.failure(error))
            }
          }
        },
        convertSecondFailure: { $0 })
      upstream.subscribe(subscription)
    }
  }
}

extension Publisher {
  /// Handles errors from an upstream publisher by either replacing it with another
  /// publisher or throwing a new error.
  ///
  /// Use `tryCatch(_:)` to decide, per error, whether to continue with a replacement
  /// publisher or to fail with an error of your choosing (which may be the original one).
  ///
  /// ```swift
  /// enum SimpleError: Error { case error }
  /// var numbers = [5, 4, 3, 2, 1, -1, 7, 8, 9, 10]
  /// cancellable = numbers.publisher
  ///   .tryMap { v in
  ///     if v > 0 { return v }
  ///     throw SimpleError.error
  ///   }
  ///   .tryCatch { error in Just(0) }
  ///   .sink(receiveCompletion: { print("\($0)") }, receiveValue: { print("\($0)", terminator: " ") })
  /// // Prints: "5 4 3 2 1 0 finished"
  /// ```
  ///
  /// Back-pressure: carries the outstanding downstream demand over to the replacement.
  ///
  /// - Parameter handler: A throwing closure that accepts the upstream failure as input.
  ///   This closure can either replace the upstream publisher with a new one, or throw a
  ///   new error to the downstream subscriber.
  /// - Returns: A publisher that handles errors from an upstream publisher by replacing the
  ///   failed publisher with another publisher, or an error.
  @inlinable
  public consuming func tryCatch<P: Publisher>(_ handler: @escaping (Failure) throws -> P)
    -> Publishers.TryCatch<Self, P>
  where Output == P.Output {
    Publishers.TryCatch(upstream: self, handler: handler)
  }
}
