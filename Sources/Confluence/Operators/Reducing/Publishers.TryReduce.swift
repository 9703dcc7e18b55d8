extension Publishers {
  /// A publisher that applies an error-throwing closure to all received elements and
  /// produces an accumulated value when the upstream publisher finishes.
  ///
  /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher
  ///   .tryReduce(0) { sum, next in
  ///     guard next > 0 else { throw BadValue() }
  ///     return sum + next
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })   // 6, finished
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream; publishes the accumulated value once
  /// downstream has requested at least one value.
  @_eagerMove
  public struct TryReduce<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The initial value provided on the first-use of the closure.
    public let initial: Output

    /// An error-throwing closure that takes the previously-accumulated value and the next
    /// element from the upstream to produce a new value.
    ///
    /// If this closure throws an error, the publisher fails and passes the error to its
    /// subscriber.
    public let nextPartialResult: (Output, Upstream.Output) throws -> Output

    /// Creates a publisher that applies an error-throwing closure to all received elements
    /// and produces an accumulated value when the upstream publisher finishes.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - initial: The initial value provided on the first-use of the closure.
    ///   - nextPartialResult: An error-throwing closure that takes the previously-accumulated
    ///     value and the next element from the upstream to produce a new value.
    @inlinable
    public init(
      upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
    ) {
      self.upstream = upstream
      self.initial = initial
      self.nextPartialResult = nextPartialResult
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let logic = TryReduceLogic<Upstream.Output, Output>(result: initial, nextPartialResult: nextPartialResult)
      upstream._subscribeUpstream(
        ReducingSubscription<_, Upstream.Failure, S>(
          downstream: subscriber, logic: logic, convertFailure: { $0 }))
    }
  }
}

extension Publisher {
  /// Applies an error-throwing closure that collects each element of a stream and
  /// publishes a final result upon completion.
  ///
  /// If the closure throws an error, the publisher cancels upstream and fails with that
  /// error; if upstream fails, the failure is forwarded. Either way no value is published.
  ///
  /// ```swift
  /// struct IllegalValueError: Error {}
  /// cancellable = [1, 2, 3, 0, 5].publisher
  ///   .tryReduce(1) { accum, next in
  ///     guard next != 0 else { throw IllegalValueError() }
  ///     return accum * next
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: "failure(IllegalValueError())"
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream.
  ///
  /// - Parameters:
  ///   - initialResult: The value that the closure receives the first time it's called.
  ///   - nextPartialResult: An error-throwing closure that takes the previously-accumulated
  ///     value and the next element from the upstream publisher to produce a new value.
  /// - Returns: A publisher that applies the closure to all received elements and produces
  ///   an accumulated value when the upstream publisher finishes.
  @inlinable
  public consuming func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
  ) -> Publishers.TryReduce<Self, T> {
    Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
  }
}

/// `tryReduce(_:_:)`: folds every value into `result`; a thrown error fails the stream.
@usableFromInline
internal struct TryReduceLogic<Input, Output>: ReducingLogic {
  @usableFromInline internal var result: Output?
  @usableFromInline internal let nextPartialResult: (Output, Input) throws -> Output

  @inlinable
  internal init(result: Output, nextPartialResult: @escaping (Output, Input) throws -> Output) {
    self.result = result
    self.nextPartialResult = nextPartialResult
  }

  @inlinable
  internal static var name: String { "TryReduce" }

  /// Before any value arrives, `result` still holds the initial value.
  @inlinable
  internal var initial: Output? { result }

  @inlinable
  internal mutating func reduce(_ input: Input) -> ReducingStep<Output, any Error> {
    do {
      result = try nextPartialResult(result.unsafelyUnwrapped, input)
      return .proceed
    } catch {
      result = nil
      return .fail(error)
    }
  }

  @inlinable
  internal mutating func finish() -> Output? {
    defer { result = nil }
    return result
  }
}
