extension Publishers {
  /// A publisher that appears to send a specified failure type.
  ///
  /// The publisher can’t actually fail with the specified type and finishes normally. Use
  /// this publisher type when you need to match the error types for two mismatched
  /// publishers.
  ///
  /// ```swift
  /// let numbers: AnyPublisher<Int, URLError> = Just(1)
  ///   .setFailureType(to: URLError.self)
  ///   .eraseToAnyPublisher()
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged and hands the upstream subscription
  /// straight to the downstream subscriber (so `print` placed after it shows the
  /// upstream's subscription); the subscriber it attaches upstream is described as
  /// `SetFailureType`. Costs no allocation or lock per element.
  @_eagerMove
  public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
    public typealias Output = Upstream.Output

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that appears to send a specified failure type.
    ///
    /// - Parameter upstream: The publisher from which this publisher receives elements.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      _receiveRelay(subscriber)
    }

    /// Moves `relay` into this `setFailureType`'s own relay, which it hands to `upstream` in turn (see
    /// `Publisher._receiveRelay(_:)`).
    ///
    /// - Parameter relay: A subscriber the caller made for this call and keeps no copy of.
    @inlinable
    @inline(__always)
    public func _receiveRelay<S: Subscriber>(_ relay: consuming S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(SetFailureTypeSubscriber(downstream: relay))
    }

    /// Changes the failure type declared by the upstream publisher.
    ///
    /// Setting the failure type twice only keeps the last one:
    ///
    /// ```swift
    /// let pub = Just(1).setFailureType(to: TestError.self).setFailureType(to: URLError.self)
    /// // Publishers.SetFailureType<Just<Int>, URLError>
    /// ```
    ///
    /// - Parameter failureType: The `Failure` type presented by this publisher.
    /// - Returns: A publisher on the same upstream that appears to send `failureType`.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Upstream, E> {
      Publishers.SetFailureType(upstream: upstream)
    }
  }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}

extension Publisher where Failure == Never {
  /// Changes the failure type declared by the upstream publisher.
  ///
  /// Use `setFailureType(to:)` when you need set the error type of a publisher that
  /// cannot fail.
  ///
  /// Conversely, if the upstream can fail, you would use `mapError(_:)` to provide
  /// instructions on converting the error types to needed by the downstream publisher’s
  /// inputs.
  ///
  /// ```swift
  /// let pub1 = [0, 1, 2, 3, 4, 5].publisher
  /// let pub2 = CurrentValueSubject<Int, Error>(0)
  /// let cancellable = pub1
  ///   .setFailureType(to: Error.self)
  ///   .combineLatest(pub2)
  ///   .sink(
  ///     receiveCompletion: { print ("completed: \($0)") },
  ///     receiveValue: { print ("value: \($0)")}
  ///   )
  /// // Prints: "value: (5, 0)".
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged.
  ///
  /// - Parameter failureType: The `Failure` type presented by this publisher.
  /// - Returns: A publisher that appears to send the specified failure type.
  @inlinable
  public consuming func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
    Publishers.SetFailureType(upstream: self)
  }
}

/// The subscriber `SetFailureType` attaches upstream: forwards everything untouched (the
/// upstream never fails, so its completion is always `.finished`).
@usableFromInline
@_eagerMove
internal struct SetFailureTypeSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  internal typealias Input = Downstream.Input

  @usableFromInline
  internal typealias Failure = Never

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
  }

  /// Always inlined: a one-call value path (Benchmarks/README.md, "Long pipelines", point 7).
  @inlinable
  @inline(__always)
  internal func receive(_ input: Input) -> Subscribers.Demand {
    downstream.receive(input)
  }

  /// Passes a run on as it comes: values pass unchanged (see
  /// `Subscriber._receiveRun(nextRunsNoUserCode:_:)`).
  @inlinable
  @inline(__always)
  internal func _receiveRun(nextRunsNoUserCode: Bool, _ next: () -> Input??) {
    downstream._receiveRun(nextRunsNoUserCode: nextRunsNoUserCode, next)
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Never>) {
    downstream.receive(completion: .finished)
  }

  @usableFromInline
  internal var description: String { "SetFailureType" }

  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
