extension Publishers {
  /// A publisher that transforms elements from the upstream publisher by providing the
  /// current element to a failable closure along with the last value returned by the
  /// closure.
  ///
  /// If the closure throws, the publisher cancels its upstream and fails with the error.
  /// Each subscription starts again from `initialResult`.
  ///
  /// ```swift
  /// struct TooBig: Error {}
  /// let cancellable = (1...5).publisher
  ///   .tryScan(0) { total, next in
  ///     guard total + next < 10 else { throw TooBig() }
  ///     return total + next
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // 1, 3, 6, failure(TooBig())
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged. It stands between upstream and
  /// downstream (to cancel upstream when the closure throws), so `print` placed after it
  /// shows `TryScan`.
  @_eagerMove
  public struct TryScan<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The previous result returned by the `nextPartialResult` closure, to start with.
    public let initialResult: Output

    /// An error-throwing closure that takes as its arguments the previous value returned
    /// by the closure and the next element emitted from the upstream publisher.
    public let nextPartialResult: (Output, Upstream.Output) throws -> Output

    /// Creates a publisher that accumulates elements with an error-throwing closure,
    /// publishing each intermediate result.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - initialResult: The value passed to the first call of `nextPartialResult`.
    ///   - nextPartialResult: An error-throwing closure that takes the previous result and
    ///     the next upstream element and returns the next result.
    @inlinable
    public init(
      upstream: Upstream, initialResult: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
    ) {
      self.upstream = upstream
      self.initialResult = initialResult
      self.nextPartialResult = nextPartialResult
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        FilteringSubscription(
          downstream: subscriber,
          logic: TryScanLogic<Upstream.Output, Output, Upstream.Failure>(
            result: initialResult, nextPartialResult: nextPartialResult)))
    }
  }
}

extension Publisher {
  /// Transforms elements from the upstream publisher by providing the current element to
  /// an error-throwing closure along with the last value returned by the closure.
  ///
  /// Use `tryScan(_:_:)` to accumulate all previously-published values into a single
  /// value, which you then combine with each newly-published value. If your accumulator
  /// closure throws an error, the publisher terminates with the error.
  ///
  /// ```swift
  /// struct DivisionByZeroError: Error {}
  /// let numbers = [1, 2, 3, 4, 0, 5]
  /// cancellable = numbers.publisher
  ///   .tryScan(10) {
  ///     guard $1 != 0 else { throw DivisionByZeroError() }
  ///     return ($0 * $1) / $1
  ///   }
  ///   .sink(
  ///     receiveCompletion: { print ("\($0)") },
  ///     receiveValue: { print ("\($0)", terminator: " ") }
  ///   )
  /// // Prints: "10 10 10 10 failure(DivisionByZeroError())".
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged; a thrown error cancels upstream.
  ///
  /// - Parameters:
  ///   - initialResult: The previous result returned by the `nextPartialResult` closure.
  ///   - nextPartialResult: An error-throwing closure that takes as its arguments the
  ///     previous value returned by the closure and the next element emitted from the
  ///     upstream publisher.
  /// - Returns: A publisher that transforms elements by applying a closure that receives
  ///   its previous return value and the next element from the upstream publisher.
  @inlinable
  public consuming func tryScan<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
  ) -> Publishers.TryScan<Self, T> {
    Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
  }
}

/// `tryScan`'s per-value decision: publish the next running result, or fail with what the
/// closure threw.
@usableFromInline
internal struct TryScanLogic<Input, Output, UpstreamFailure: Error>: FilteringLogic {
  @usableFromInline internal typealias Failure = any Error

  @usableFromInline
  internal var result: Output

  @usableFromInline
  internal let nextPartialResult: (Output, Input) throws -> Output

  @inlinable
  internal init(result: Output, nextPartialResult: @escaping (Output, Input) throws -> Output) {
    self.result = result
    self.nextPartialResult = nextPartialResult
  }

  @inlinable
  internal static var name: String { "TryScan" }

  @inlinable
  internal static var edges: FilteringEdges {
    // Stateless like tryMap, except that a throw after the first does not fail again.
    FilteringEdges(
      trapsBeforeSubscription: false, processesValuesOutsideLiveSpan: true, remembersEarlyCancel: false,
      reportsOwnFailureWhenDetached: false)
  }

  @inlinable
  internal func reflectedChildren(downstream: Any, status: String) -> KeyValuePairs<String, Any> {
    ["downstream": downstream, "status": status, "result": result as Any]
  }

  @inlinable
  @inline(__always)
  internal mutating func receive<Target: Subscriber>(_ input: Input, to target: borrowing Target) -> FilteringVerdict
  where Target.Input == Output {
    do {
      result = try nextPartialResult(result, input)
    } catch {
      return .failed(error)
    }
    return .published(target.receive(result))
  }

  @inlinable
  internal func convert(_ failure: UpstreamFailure) -> any Error { failure }
}
