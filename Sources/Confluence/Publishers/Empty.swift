/// A publisher that never publishes any values, and optionally finishes immediately.
///
/// You can create a ”Never” publisher — one which never sends values and never finishes
/// or fails — with the initializer `Empty(completeImmediately: false)`.
///
/// `Empty` is handy where an API must return a publisher but there is nothing to send,
/// for example when recovering from an error with ``Publishers/Catch``:
///
/// ```swift
/// let cancellable = Empty<Int, Never>()
///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
/// // Prints: "finished"
/// ```
///
/// Each subscriber receives ``Subscriptions/empty`` (shown as `Empty` by `print`) and then,
/// if ``completeImmediately`` is `true`, `.finished` at once.
///
/// Back-pressure: sends no values, so it ignores demand; it completes without waiting
/// for a request.
@_eagerMove
public struct Empty<Output, Failure: Error>: Publisher, Equatable {
  /// A Boolean value that indicates whether the publisher immediately sends a completion.
  ///
  /// If `true`, the publisher finishes immediately after sending a subscription to the
  /// subscriber. If `false`, it never completes.
  public let completeImmediately: Bool

  /// Creates an empty publisher.
  ///
  /// ```swift
  /// let never = Empty<String, Error>(completeImmediately: false)
  /// ```
  ///
  /// - Parameter completeImmediately: A Boolean value that indicates whether the publisher
  ///   should immediately finish.
  @inlinable
  public init(completeImmediately: Bool = true) {
    self.completeImmediately = completeImmediately
  }

  /// Creates an empty publisher with the given completion behavior and output and failure
  /// types.
  ///
  /// Use this initializer to connect the empty publisher to subscribers or other
  /// publishers that have specific output and failure types:
  ///
  /// ```swift
  /// let empty = Empty(outputType: Int.self, failureType: Never.self)
  /// ```
  ///
  /// - Parameters:
  ///   - completeImmediately: A Boolean value that indicates whether the publisher should
  ///     immediately finish.
  ///   - outputType: The output type exposed by this publisher.
  ///   - failureType: The failure type exposed by this publisher.
  @inlinable
  public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
    self.init(completeImmediately: completeImmediately)
  }

  /// Sends ``Subscriptions/empty`` to `subscriber`, then `.finished` if
  /// ``completeImmediately`` is `true`.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    subscriber.receive(subscription: Subscriptions.empty)
    if completeImmediately {
      subscriber.receive(completion: .finished)
    }
  }

  /// Hands `.finished` to a sink that `sink(receiveCompletion:receiveValue:)` has just made,
  /// with no subscription in between (see `Publisher._subscribeNewSink(_:)`), when this
  /// publisher completes immediately and no `_Introspection` is enabled (which must see the
  /// subscribe); otherwise subscribes it.
  ///
  /// - Parameter sink: A sink made by `sink(receiveCompletion:receiveValue:)`.
  @inlinable
  public func _subscribeNewSink(_ sink: Subscribers.Sink<Output, Failure>) {
    if completeImmediately {
      handOver(nil, then: .finished, toNewSink: sink)
    } else {
      subscribe(sink)
    }
  }

  /// Returns a Boolean value that indicates whether two publishers are equivalent: both
  /// complete immediately, or neither does.
  ///
  /// - Parameters:
  ///   - lhs: An `Empty` instance to compare.
  ///   - rhs: Another `Empty` instance to compare.
  /// - Returns: `true` if the two publishers have equal `completeImmediately` properties.
  @inlinable
  public static func == (lhs: Empty<Output, Failure>, rhs: Empty<Output, Failure>) -> Bool {
    lhs.completeImmediately == rhs.completeImmediately
  }
}

// Holds a Bool only; the generic parameters are phantom types.
extension Empty: Sendable {}
