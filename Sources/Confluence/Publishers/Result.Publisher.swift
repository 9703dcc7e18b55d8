extension Result {
  /// A Combine publisher that publishes this instance’s result to each subscriber exactly
  /// once, or fails immediately if the result indicates failure.
  ///
  /// In contrast with ``Just``, a `Result.Publisher` can fail; and unlike
  /// `Optional.Publisher`, it always either sends a value or fails.
  ///
  /// ```swift
  /// let success: Result<Int, TestError> = .success(5)
  /// let cancellable = success.publisher
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: "5", then "finished"
  /// ```
  ///
  /// On success each subscriber receives a subscription described as `Once` (what `print`
  /// shows; Apple's name for this publisher before Swift 5.1), then the value and
  /// `.finished` on its first request. On failure it receives ``Subscriptions/empty`` and
  /// `.failure` at once.
  ///
  /// Back-pressure: a success is sent on the first non-zero request; a failure is sent
  /// without waiting for demand.
  @_eagerMove
  public struct Publisher: Confluence.Publisher {
    /// The kind of values published by this publisher: the result's `Success` type.
    public typealias Output = Success

    /// The result to deliver to each subscriber.
    public let result: Result<Output, Failure>

    /// Creates a publisher that delivers the specified result.
    ///
    /// If the result is `Result.success(_:)`, this publisher delivers the contained
    /// value to each subscriber and then finishes. If it is `Result.failure(_:)`, this
    /// publisher sends the failure immediately.
    ///
    /// ```swift
    /// let publisher = Result<Int, TestError>.Publisher(.success(1))
    /// ```
    ///
    /// - Parameter result: The result to deliver to each subscriber.
    @inlinable
    public init(_ result: Result<Output, Failure>) {
      self.result = result
    }

    /// Creates a publisher that sends the specified output to all subscribers and
    /// finishes normally.
    ///
    /// ```swift
    /// let publisher = Result<Int, TestError>.Publisher(1)
    /// ```
    ///
    /// - Parameter output: The output to deliver to each subscriber.
    @inlinable
    public init(_ output: Output) {
      self.init(.success(output))
    }

    /// Creates a publisher that immediately terminates upon subscription with the given
    /// failure.
    ///
    /// ```swift
    /// let publisher = Result<Int, TestError>.Publisher(TestError("boom"))
    /// ```
    ///
    /// - Parameter failure: The failure to send when terminating.
    @inlinable
    public init(_ failure: Failure) {
      self.init(.failure(failure))
    }

    /// Sends a success on demand, then `.finished`; or a failure at once.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      switch result {
      case .success(let value):
        subscriber.receive(subscription: JustSubscriptionOf<S>(value: value, downstream: subscriber, name: "Once"))
      case .failure(let error):
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
      }
    }

    /// Hands the success and `.finished`, or the failure, to a sink that
    /// `sink(receiveCompletion:receiveValue:)` has just made, with no subscription in
    /// between (see `Publisher._subscribeNewSink(_:)`), unless an `_Introspection` is
    /// enabled, which must see the subscribe.
    ///
    /// - Parameter sink: A sink made by `sink(receiveCompletion:receiveValue:)`.
    @inlinable
    public func _subscribeNewSink(_ sink: Subscribers.Sink<Output, Failure>) {
      switch result {
      case .success(let value): handOver(value, then: .finished, toNewSink: sink)
      case .failure(let error): handOver(nil, then: .failure(error), toNewSink: sink)
      }
    }
  }

  /// A publisher that publishes this result to each subscriber exactly once: the success
  /// value followed by `.finished`, or the failure.
  ///
  /// ```swift
  /// func parse(_ text: String) -> Result<Int, ParseError> { … }
  /// let cancellable = parse("42").publisher
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  @inlinable
  public var publisher: Publisher {
    Publisher(self)
  }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
extension Result.Publisher: Sendable where Success: Sendable, Failure: Sendable {}
