extension Publishers {
  /// A publisher that converts any failure from the upstream publisher into a new error.
  ///
  /// ```swift
  /// struct WrappedError: Error { let underlying: any Error }
  /// let cancellable = Fail<Int, TestError>(error: TestError())
  ///   .mapError { WrappedError(underlying: $0) }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged. Like ``Publishers/Map`` it hands the
  /// upstream subscription straight to the downstream subscriber (so `print` placed after
  /// `mapError` shows the upstream's subscription); the subscriber it attaches upstream is
  /// described as `MapError`. Costs no allocation or lock per element.
  @_eagerMove
  public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
    public typealias Output = Upstream.Output

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that converts the upstream failure into a new error.
    public let transform: (Upstream.Failure) -> Failure

    /// Creates a publisher that converts any failure from the upstream publisher into a
    /// new error.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - transform: The closure that converts the upstream failure into a new error.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Creates a publisher that converts any failure from the upstream publisher into a
    /// new error, with the closure as an unlabelled argument.
    ///
    /// ```swift
    /// let mapped = Publishers.MapError(upstream: pub, { AppError.wrapped($0) })
    /// ```
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - map: The closure that converts the upstream failure into a new error.
    @inlinable
    public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
      self.init(upstream: upstream, transform: map)
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      _receiveRelay(subscriber)
    }

    /// Moves `relay` into this `mapError`'s own relay, which it hands to `upstream` in turn (see
    /// `Publisher._receiveRelay(_:)`).
    ///
    /// - Parameter relay: A subscriber the caller made for this call and keeps no copy of.
    @inlinable
    @inline(__always)
    public func _receiveRelay<S: Subscriber>(_ relay: consuming S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(MapErrorSubscriber<Upstream.Failure, S>(downstream: relay, transform: transform))
    }
  }
}

extension Publisher {
  /// Converts any failure from the upstream publisher into a new error.
  ///
  /// Use the `mapError(_:)` operator when you need to replace one error type with
  /// another, or where a downstream operator needs the error types of its inputs to match.
  ///
  /// ```swift
  /// struct DivisionByZeroError: Error {}
  /// struct MyGenericError: Error { var wrappedError: Error }
  /// func myDivide(_ dividend: Double, _ divisor: Double) throws -> Double {
  ///   guard divisor != 0 else { throw DivisionByZeroError() }
  ///   return dividend / divisor
  /// }
  /// let divisors: [Double] = [5, 4, 3, 2, 1, 0]
  /// divisors.publisher
  ///   .tryMap { try myDivide(1, $0) }
  ///   .mapError { MyGenericError(wrappedError: $0) }
  ///   .sink(
  ///     receiveCompletion: { print ("completion: \($0)") },
  ///     receiveValue: { print ("value: \($0)", terminator: " ") }
  ///   )
  ///   .store(in: &cancellables)
  /// // Prints: "0.2 0.25 0.3333333333333333 0.5 1.0 completion: failure(MyGenericError(wrappedError: DivisionByZeroError()))"
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged.
  ///
  /// - Parameter transform: A closure that takes the upstream failure as a parameter and
  ///   returns a new error for the publisher to terminate with.
  /// - Returns: A publisher that replaces any upstream failure with a new error produced
  ///   by the `transform` closure.
  @inlinable
  public consuming func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
    Publishers.MapError(upstream: self, transform: transform)
  }
}

/// The subscriber `MapError` attaches upstream: converts a failure and forwards everything
/// else untouched. A value type, so a `mapError` stage costs no allocation.
@usableFromInline
@_eagerMove
internal struct MapErrorSubscriber<Failure: Error, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  internal typealias Input = Downstream.Input

  @usableFromInline
  internal let downstream: Downstream

  @usableFromInline
  internal let transform: (Failure) -> Downstream.Failure

  @inlinable
  internal init(downstream: Downstream, transform: @escaping (Failure) -> Downstream.Failure) {
    self.downstream = downstream
    self.transform = transform
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
  internal func receive(completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished:
      downstream.receive(completion: .finished)
    case .failure(let error):
      downstream.receive(completion: .failure(transform(error)))
    }
  }

  @usableFromInline
  internal var description: String { "MapError" }

  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
