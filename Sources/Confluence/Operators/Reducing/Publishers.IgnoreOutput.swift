extension Publishers {
  /// A publisher that ignores all upstream elements, but passes along the upstream publisher's
  /// completion state (finished or failed).
  ///
  /// Use it when only the end of a stream matters.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher
  ///   .ignoreOutput()
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })   // finished
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream as soon as it subscribes; the completion
  /// is passed on at once, whatever the downstream demand.
  ///
  /// As Apple's, `ignoreOutput()` adds no subscription of its own: downstream receives the
  /// upstream's subscription, so its requests and `cancel()` go straight to upstream.
  @_eagerMove
  public struct IgnoreOutput<Upstream: Publisher>: Publisher {
    public typealias Output = Never
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that ignores all elements of `upstream` and passes on its completion.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(IgnoreOutputSubscriber<Upstream.Output, S>(downstream: subscriber))
    }
  }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

extension Publisher {
  /// Ignores all upstream elements, but passes along the upstream publisher's completion state
  /// (finished or failed).
  ///
  /// Use the `ignoreOutput()` operator to determine if a publisher is able to complete
  /// successfully or would fail.
  ///
  /// ```swift
  /// struct NoZeroValuesAllowedError: Error {}
  /// let numbers = [1, 2, 3, 4, 5, 0, 6, 7, 8, 9]
  /// cancellable = numbers.publisher
  ///   .tryFilter({ anInt in
  ///     guard anInt != 0 else { throw NoZeroValuesAllowedError() }
  ///     return anInt < 20
  ///   })
  ///   .ignoreOutput()
  ///   .sink(receiveCompletion: { print("completion: \($0)") },
  ///         receiveValue: { print("value \($0)") })
  /// // Prints: "completion: failure(NoZeroValuesAllowedError())"
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream.
  ///
  /// - Returns: A publisher that ignores all upstream elements.
  @inlinable
  public consuming func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
    Publishers.IgnoreOutput(upstream: self)
  }
}

/// The subscriber `ignoreOutput()` puts between upstream and downstream.
///
/// Apple's rules for it, which differ from the other reducers': it hands the upstream's own
/// subscription to downstream and then requests `.unlimited` from it — for every subscription
/// it receives, a second one included; it drops every value (returning `.none`) and passes
/// every completion on as it comes, even one before any subscription. It keeps no state, so
/// it takes no lock at all, and it is not a subscription itself.
@usableFromInline
@_eagerMove
internal struct IgnoreOutputSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Never {
  @usableFromInline
  internal typealias Failure = Downstream.Failure

  @usableFromInline
  internal let downstream: Downstream

  @inlinable
  internal init(downstream: Downstream) {
    self.downstream = downstream
  }

  @inlinable
  internal var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  @inlinable
  internal func receive(subscription: Subscription) {
    downstream.receive(subscription: subscription)
    subscription.request(.unlimited)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand { .none }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }

  @usableFromInline
  internal var description: String { "IgnoreOutput" }

  /// As Apple's: no children.
  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
