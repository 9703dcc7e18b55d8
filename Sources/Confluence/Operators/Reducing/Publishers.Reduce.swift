extension Publishers {
  /// A publisher that applies a closure to all received elements and produces an
  /// accumulated value when the upstream publisher finishes.
  ///
  /// ```swift
  /// let cancellable = (0...10).publisher
  ///   .reduce(0, +)
  ///   .sink { print($0) }   // 55
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream; publishes the accumulated value once
  /// downstream has requested at least one value.
  @_eagerMove
  public struct Reduce<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The initial value provided on the first invocation of the closure.
    public let initial: Output

    /// A closure that takes the previously-accumulated value and the next element from the
    /// upstream publisher to produce a new value.
    public let nextPartialResult: (Output, Upstream.Output) -> Output

    /// Creates a publisher that applies a closure to all received elements and produces an
    /// accumulated value when the upstream publisher finishes.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - initial: The initial value provided on the first invocation of the closure.
    ///   - nextPartialResult: A closure that takes the previously-accumulated value and the
    ///     next element from the upstream publisher to produce a new value.
    @inlinable
    public init(upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output) {
      self.upstream = upstream
      self.initial = initial
      self.nextPartialResult = nextPartialResult
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let logic = ReduceLogic<Upstream.Output, Output, Failure>(result: initial, nextPartialResult: nextPartialResult)
      upstream._subscribeUpstream(ReducingSubscription(downstream: subscriber, logic: logic))
    }
  }
}

extension Publisher {
  /// Applies a closure that collects each element of a stream and publishes a final result
  /// upon completion.
  ///
  /// If upstream fails, the operator forwards the failure and publishes no value.
  ///
  /// ```swift
  /// let numbers = (0...10)
  /// cancellable = numbers.publisher
  ///   .reduce(0, { accum, next in accum + next })
  ///   .sink { print("\($0)") }
  /// // Prints: "55"
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream.
  ///
  /// - Parameters:
  ///   - initialResult: The value that the closure receives the first time it's called.
  ///   - nextPartialResult: A closure that produces a new value by taking the
  ///     previously-accumulated value and the next element it receives from the upstream
  ///     publisher.
  /// - Returns: A publisher that applies the closure to all received elements and produces
  ///   an accumulated value when the upstream publisher finishes.
  @inlinable
  public consuming func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
    -> Publishers.Reduce<Self, T>
  {
    Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
  }
}

/// `reduce(_:_:)`: folds every value into `result`.
@usableFromInline
internal struct ReduceLogic<Input, Output, Failure: Error>: ReducingLogic {
  @usableFromInline internal var result: Output?
  @usableFromInline internal let nextPartialResult: (Output, Input) -> Output

  @inlinable
  internal init(result: Output, nextPartialResult: @escaping (Output, Input) -> Output) {
    self.result = result
    self.nextPartialResult = nextPartialResult
  }

  @inlinable
  internal static var name: String { "Reduce" }

  /// Before any value arrives, `result` still holds the initial value.
  @inlinable
  internal var initial: Output? { result }

  @inlinable
  internal mutating func reduce(_ input: Input) -> ReducingStep<Output, Failure> {
    result = nextPartialResult(result.unsafelyUnwrapped, input)
    return .proceed
  }

  @inlinable
  internal mutating func finish() -> Output? {
    defer { result = nil }
    return result
  }
}
