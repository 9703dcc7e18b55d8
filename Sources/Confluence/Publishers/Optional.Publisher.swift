extension Optional {
  /// The type of a Combine publisher that publishes the value of a Swift optional instance
  /// to each subscriber exactly once, if the instance has any value at all.
  ///
  /// In contrast with the ``Just`` publisher, which always produces a single value, this
  /// publisher might not send any values and instead finish normally, if ``output`` is
  /// `nil`.
  ///
  /// ```swift
  /// let some: Int? = 1
  /// let cancellable = some.publisher.sink { print($0) }   // prints 1
  /// let none: Int? = nil
  /// let other = none.publisher.sink { print($0) }        // prints nothing; finishes
  /// ```
  ///
  /// With a value, each subscriber receives a subscription described as `Optional` (what
  /// `print` shows), then the value and `.finished` on its first request. Without one, it
  /// receives ``Subscriptions/empty`` and `.finished` at once.
  ///
  /// Back-pressure: sends its value on the first non-zero request, then finishes.
  @_eagerMove
  public struct Publisher: Confluence.Publisher {
    /// The kind of value published by this publisher: the optional's `Wrapped` type.
    public typealias Output = Wrapped

    /// The kind of error this publisher might publish: it never fails.
    public typealias Failure = Never

    /// The output to deliver to each subscriber, or `nil` to finish without a value.
    public let output: Wrapped?

    /// Creates a publisher to emit the value of the optional, or to finish immediately if
    /// the optional doesn’t have a value.
    ///
    /// ```swift
    /// let publisher = Optional<Int>.Publisher(3)
    /// ```
    ///
    /// - Parameter output: The result to deliver to each subscriber.
    @inlinable
    public init(_ output: Output?) {
      self.output = output
    }

    /// Sends the value on demand, then `.finished`; or finishes at once if there is none.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      if let output {
        subscriber.receive(subscription: JustSubscriptionOf<S>(value: output, downstream: subscriber, name: "Optional"))
      } else {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .finished)
      }
    }

    /// Hands the value, if any, and `.finished` to a sink that
    /// `sink(receiveCompletion:receiveValue:)` has just made, with no subscription in
    /// between (see `Publisher._subscribeNewSink(_:)`), unless an `_Introspection` is
    /// enabled, which must see the subscribe.
    ///
    /// - Parameter sink: A sink made by `sink(receiveCompletion:receiveValue:)`.
    @inlinable
    public func _subscribeNewSink(_ sink: Subscribers.Sink<Output, Failure>) {
      handOver(output, then: .finished, toNewSink: sink)
    }
  }

  /// A publisher that publishes an optional value to each subscriber exactly once, if the
  /// optional has a value.
  ///
  /// ```swift
  /// let optional1: Int? = 1
  /// optional1.publisher
  ///   .sink(receiveCompletion: { _ in print("optional1 completed.") },
  ///         receiveValue: { print("optional1 = \($0)") })
  /// // Prints:
  /// // optional1 = 1
  /// // optional1 completed.
  /// ```
  ///
  /// If the optional is `nil`, the publisher sends no value and finishes immediately.
  @inlinable
  public var publisher: Publisher {
    Publisher(self)
  }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
extension Optional.Publisher: Sendable where Wrapped: Sendable {}
