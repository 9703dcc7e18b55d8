extension Publishers {
  /// A publisher that transforms elements from the upstream publisher by providing the
  /// current element to a closure along with the last value returned by the closure.
  ///
  /// Each subscription starts again from `initialResult`.
  ///
  /// ```swift
  /// let cancellable = (0...5).publisher
  ///   .scan(0) { $0 + $1 }
  ///   .sink { print("\($0)", terminator: " ") }
  /// // Prints: "0 1 3 6 10 15 ".
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged. Like ``Publishers/Map`` it hands the
  /// upstream subscription straight to the downstream subscriber (so `print` placed after
  /// `scan` shows the upstream's subscription); the subscriber it attaches upstream is
  /// described as `Scan`. Costs no allocation or lock per element.
  @_eagerMove
  public struct Scan<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The previous result returned by the `nextPartialResult` closure, to start with.
    public let initialResult: Output

    /// A closure that takes as its arguments the previous value returned by the closure
    /// and the next element emitted from the upstream publisher.
    public let nextPartialResult: (Output, Upstream.Output) -> Output

    /// Creates a publisher that accumulates elements with a closure, publishing each
    /// intermediate result.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - initialResult: The value passed to the first call of `nextPartialResult`.
    ///   - nextPartialResult: A closure that takes the previous result and the next
    ///     upstream element and returns the next result.
    @inlinable
    public init(
      upstream: Upstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
    ) {
      self.upstream = upstream
      self.initialResult = initialResult
      self.nextPartialResult = nextPartialResult
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        ScanSubscriber<Upstream.Output, Output, S>(
          downstream: subscriber, initialResult: initialResult, nextPartialResult: nextPartialResult))
    }
  }
}

extension Publisher {
  /// Transforms elements from the upstream publisher by providing the current element to
  /// a closure along with the last value returned by the closure.
  ///
  /// Use `scan(_:_:)` to accumulate all previously-published values into a single value,
  /// which you then combine with each newly-published value. The following example logs a
  /// running total of all values received from the sequence publisher:
  ///
  /// ```swift
  /// let range = (0...5)
  /// cancellable = range.publisher
  ///   .scan(0) { return $0 + $1 }
  ///   .sink { print ("\($0)", terminator: " ") }
  /// // Prints: "0 1 3 6 10 15 ".
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged; publishes one result per element.
  ///
  /// - Parameters:
  ///   - initialResult: The previous result returned by the `nextPartialResult` closure.
  ///   - nextPartialResult: A closure that takes as its arguments the previous value
  ///     returned by the closure and the next element emitted from the upstream publisher.
  /// - Returns: A publisher that transforms elements by applying a closure that receives
  ///   its previous return value and the next element from the upstream publisher.
  @inlinable
  public consuming func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
    -> Publishers.Scan<Self, T>
  {
    Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
  }
}

/// The subscriber `Scan` attaches upstream: folds each value into the running result and
/// forwards the result; the subscription and completion pass through untouched.
///
/// `result` is mutated only from upstream's serialised `receive(_:)`, hence no lock. Generic
/// over its `Output` for the reason `MapSubscriber` gives.
@usableFromInline
internal final class ScanSubscriber<Input, Output, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Output {
  @usableFromInline
  internal typealias Failure = Downstream.Failure

  @usableFromInline
  internal let downstream: Downstream

  @usableFromInline
  internal let nextPartialResult: (Output, Input) -> Output

  /// The running result; touched only from upstream's serialised `receive(_:)`.
  @usableFromInline
  @exclusivity(unchecked)
  internal var result: Output

  @inlinable
  internal init(
    downstream: Downstream, initialResult: Output,
    nextPartialResult: @escaping (Output, Input) -> Output
  ) {
    self.downstream = downstream
    self.result = initialResult
    self.nextPartialResult = nextPartialResult
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    downstream.receive(subscription: subscription)
  }

  /// Always inlined: a one-call value path (Benchmarks/README.md, "Long pipelines", point 7).
  @inlinable
  @inline(__always)
  internal func receive(_ input: Input) -> Subscribers.Demand {
    // Read before the closure runs, as `filter`'s (point 10), where that costs nothing:
    // borrowed in code not specialised for the downstream (see `FilterSubscriber`).
    // (The specialised branch is written out: handing `next` to a function that borrows it
    // let the optimizer load it after the closure again.)
    if _isConcrete(Downstream.self) {
      let next = downstream
      result = nextPartialResult(result, input)
      return next.receive(result)
    }
    result = nextPartialResult(result, input)
    return downstream.receive(result)
  }

  /// Passes a run on, each value folded into the result (see
  /// `Subscriber._receiveRun(nextRunsNoUserCode:_:)`).
  @inlinable
  @inline(__always)
  internal func _receiveRun(nextRunsNoUserCode: Bool, _ next: () -> Input??) {
    downstream._receiveRun(nextRunsNoUserCode: false) {
      runStep(next) { input in
        result = nextPartialResult(result, input)
        return result
      }
    }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }

  @usableFromInline
  internal var description: String { "Scan" }

  @usableFromInline
  internal var customMirror: Mirror {
    Mirror(self, children: ["downstream": downstream, "result": result])
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
