import Synchronization

extension Publishers {
  /// A publisher that attempts to recreate its subscription to a failed upstream publisher.
  ///
  /// Values and a `.finished` completion pass through. When upstream fails, `Retry`
  /// subscribes to it again, up to `retries` times (or without limit when `retries` is
  /// `nil`); when the attempts are used up, the last failure goes downstream.
  ///
  /// ```swift
  /// let cancellable = flakyRequest
  ///   .retry(3)          // up to four attempts in all
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: passes demand to upstream (what downstream returns for a value is
  /// requested from upstream, not returned); a new attempt is asked for the demand
  /// downstream requested and has not yet received. A negative `retries` never runs out. An upstream that fails synchronously
  /// while being subscribed is retried in a loop, not by recursion.
  @_eagerMove
  public struct Retry<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The maximum number of retry attempts to perform.
    ///
    /// If `nil`, this publisher attempts to reconnect with the upstream publisher an
    /// unlimited number of times.
    public let retries: Int?

    /// Creates a publisher that attempts to recreate its subscription to a failed upstream
    /// publisher.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives its elements.
    ///   - retries: The maximum number of retry attempts to perform. If `nil`, this
    ///     publisher attempts to reconnect with the upstream publisher an unlimited number
    ///     of times.
    @inlinable
    public init(upstream: Upstream, retries: Int?) {
      self.upstream = upstream
      self.retries = retries
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      RetrySubscription(upstream: upstream, retries: retries, downstream: subscriber).subscribeUpstream()
    }
  }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

extension Publisher {
  /// Attempts to recreate a failed subscription with the upstream publisher up to the
  /// number of times you specify.
  ///
  /// Use `retry(_:)` to try connecting to an upstream publisher again after a failed
  /// attempt. `retry(3)` makes at most four attempts: the original one and three retries.
  /// If every attempt fails, the last failure is passed downstream.
  ///
  /// ```swift
  /// let pub = (0...3).publisher
  ///   .tryMap { try check($0) }   // fails now and then
  ///   .retry(2)
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  ///
  /// Back-pressure: each new attempt is asked for the demand downstream still has
  /// outstanding.
  ///
  /// - Parameter retries: The number of times to attempt to recreate the subscription.
  /// - Returns: A publisher that attempts to recreate its subscription to a failed upstream
  ///   publisher.
  @inlinable
  public consuming func retry(_ retries: Int) -> Publishers.Retry<Self> {
    Publishers.Retry(upstream: self, retries: retries)
  }
}
