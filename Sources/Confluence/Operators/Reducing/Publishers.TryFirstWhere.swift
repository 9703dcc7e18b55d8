extension Publishers {
  /// A publisher that only publishes the first element of a stream to satisfy a throwing predicate
  /// closure.
  ///
  /// Once an element satisfies the predicate, the publisher cancels upstream, publishes that element and
  /// finishes. If the predicate throws, the publisher cancels upstream and fails with the error.
  ///
  /// ```swift
  /// let cancellable = ["a", "boom", "dddd"].publisher
  ///   .tryFirst { value in
  ///     if value == "boom" { throw TestExampleError.invalidValue }
  ///     return value.count > 3
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // failure(TestExampleError.invalidValue)
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream, cancels it at the first match or error, and publishes
  /// the match once downstream has demand.
  @_eagerMove
  public struct TryFirstWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that determines whether to publish an element.
    public let predicate: (Publishers.TryFirstWhere<Upstream>.Output) throws -> Bool

    /// Creates a publisher that publishes the first element of `upstream` that satisfies the throwing
    /// `predicate`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - predicate: The error-throwing closure that determines whether to publish an element.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Publishers.TryFirstWhere<Upstream>.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        ReducingSubscription<_, Upstream.Failure, S>(
          downstream: subscriber, logic: TryFirstWhereLogic<Upstream.Output>(predicate: predicate),
          convertFailure: { $0 }
        ))
    }
  }
}

extension Publisher {
  /// Publishes the first element of a stream to satisfy a throwing predicate closure, then
  /// finishes normally.
  ///
  /// If the predicate closure throws an error, the publisher fails with that error.
  ///
  /// ```swift
  /// let numberRange: ClosedRange<Int> = (-1...50)
  /// cancellable = numberRange.publisher
  ///   .tryFirst {
  ///     guard $0 < 99 else { throw RangeError() }
  ///     return true
  ///   }
  ///   .sink(
  ///     receiveCompletion: { print ("completion: \($0)", terminator: " ") },
  ///     receiveValue: { print ("\($0)", terminator: " ") }
  ///   )
  /// // Prints: "-1 completion: finished"
  /// ```
  ///
  /// - Parameter predicate: A closure that takes an element as a parameter and returns a
  ///   Boolean value that indicates whether to publish the element.
  /// - Returns: A publisher that only publishes the first element of a stream that satisfies
  ///   the predicate.
  @inlinable
  public consuming func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
    Publishers.TryFirstWhere(upstream: self, predicate: predicate)
  }
}

/// `tryFirst(where:)`: the first match ends the stream; a thrown error fails it.
@usableFromInline
internal struct TryFirstWhereLogic<Input>: ReducingLogic {
  @usableFromInline internal let predicate: (Input) throws -> Bool

  @inlinable
  internal init(predicate: @escaping (Input) throws -> Bool) {
    self.predicate = predicate
  }

  @inlinable
  internal static var name: String { "TryFirstWhere" }

  @inlinable
  internal mutating func reduce(_ input: Input) -> ReducingStep<Input, any Error> {
    do {
      return try predicate(input) ? .finish(input) : .proceed
    } catch {
      return .fail(error)
    }
  }

  @inlinable
  internal mutating func finish() -> Input? { nil }
}
