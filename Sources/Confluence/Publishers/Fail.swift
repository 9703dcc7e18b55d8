/// A publisher that immediately terminates with the specified error.
///
/// Use `Fail` where an API returns a publisher and the answer is an error known up front,
/// such as invalid arguments:
///
/// ```swift
/// enum LookupError: Error { case emptyKey }
///
/// func lookup(_ key: String) -> AnyPublisher<Int, LookupError> {
///   guard !key.isEmpty else { return Fail(error: .emptyKey).eraseToAnyPublisher() }
///   return Just(key.count).setFailureType(to: LookupError.self).eraseToAnyPublisher()
/// }
/// ```
///
/// Each subscriber receives ``Subscriptions/empty`` (shown as `Empty` by `print`) and then
/// `.failure(error)` at once.
///
/// Back-pressure: sends no values, so it ignores demand; it fails without waiting for a
/// request.
@_eagerMove
public struct Fail<Output, Failure: Error>: Publisher {
  /// The failure to send when terminating the publisher.
  public let error: Failure

  /// Creates a publisher that immediately terminates with the specified failure.
  ///
  /// ```swift
  /// let failing = Fail<String, URLError>(error: URLError(.badURL))
  /// ```
  ///
  /// - Parameter error: The failure to send when terminating the publisher.
  @inlinable
  public init(error: Failure) {
    self.error = error
  }

  /// Creates publisher with the given output type, that immediately terminates with the
  /// specified failure.
  ///
  /// Use this initializer to create a `Fail` publisher that can work with subscribers or
  /// publishers that expect a given output type:
  ///
  /// ```swift
  /// let failing = Fail(outputType: String.self, failure: TestFailure.example)
  /// ```
  ///
  /// - Parameters:
  ///   - outputType: The output type exposed by this publisher.
  ///   - failure: The failure to send when terminating the publisher.
  @inlinable
  public init(outputType: Output.Type, failure: Failure) {
    self.init(error: failure)
  }

  /// Sends ``Subscriptions/empty`` to `subscriber`, then `.failure(error)`.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    subscriber.receive(subscription: Subscriptions.empty)
    subscriber.receive(completion: .failure(error))
  }

  /// Hands the failure to a sink that `sink(receiveCompletion:receiveValue:)` has just made,
  /// with no subscription in between (see `Publisher._subscribeNewSink(_:)`), unless an
  /// `_Introspection` is enabled, which must see the subscribe.
  ///
  /// - Parameter sink: A sink made by `sink(receiveCompletion:receiveValue:)`.
  @inlinable
  public func _subscribeNewSink(_ sink: Subscribers.Sink<Output, Failure>) {
    handOver(nil, then: .failure(error), toNewSink: sink)
  }
}

extension Fail: Equatable where Failure: Equatable {
  /// Returns a Boolean value that indicates whether two publishers are equivalent: both
  /// fail with equal errors.
  ///
  /// - Parameters:
  ///   - lhs: A `Fail` publisher to compare for equality.
  ///   - rhs: Another `Fail` publisher to compare for equality.
  /// - Returns: `true` if the publishers have equal `error` properties.
  @inlinable
  public static func == (lhs: Fail<Output, Failure>, rhs: Fail<Output, Failure>) -> Bool {
    lhs.error == rhs.error
  }
}

extension Fail: Sendable where Failure: Sendable {}
