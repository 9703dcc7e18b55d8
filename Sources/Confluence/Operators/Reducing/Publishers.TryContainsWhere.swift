extension Publishers {
  /// A publisher that emits a Boolean value upon receiving an element that satisfies the throwing
  /// predicate closure.
  ///
  /// At the first match the publisher cancels upstream, publishes `true` and finishes; if upstream
  /// finishes first, it publishes `false`. If the predicate throws, it cancels upstream and fails.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher
  ///   .tryContains { value in
  ///     guard value != 0 else { throw ZeroError() }
  ///     return value > 2
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })   // true, finished
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream, cancels it at the first match or error, and publishes
  /// the answer once downstream has demand.
  @_eagerMove
  public struct TryContainsWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Bool
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that determines whether this publisher should emit a `true` element.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a publisher that emits a Boolean value upon receiving an element of `upstream` that
    /// satisfies the throwing `predicate`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - predicate: The error-throwing closure that determines whether this publisher should emit a `true` element.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        ReducingSubscription<_, Upstream.Failure, S>(
          downstream: subscriber, logic: TryContainsWhereLogic<Upstream.Output>(predicate: predicate),
          convertFailure: { $0 }))
    }
  }
}

extension Publisher {
  /// Publishes a Boolean value upon receiving an element that satisfies the throwing predicate
  /// closure.
  ///
  /// If the predicate throws an error, the publisher fails with that error.
  ///
  /// ```swift
  /// struct IllegalValueError: Error {}
  /// let numbers = [3, 2, 10, 5, 0, 9]
  /// numbers.publisher
  ///   .tryContains(where: {
  ///     if $0 == 0 { throw IllegalValueError() }
  ///     return $0 > 7
  ///   })
  ///   .sink(
  ///     receiveCompletion: { print ("completion: \($0)") },
  ///     receiveValue: { print ("value: \($0)") }
  ///   )
  /// // Prints: "value: true"
  /// //         "completion: finished"
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream and cancels it at the first match.
  ///
  /// - Parameter predicate: A closure that takes an element as its parameter and returns a
  ///   Boolean value that indicates whether the element satisfies the closure's comparison
  ///   logic.
  /// - Returns: A publisher that emits the Boolean value `true` when the upstream publisher
  ///   emits a matching value.
  @inlinable
  public consuming func tryContains(where predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryContainsWhere<Self>
  {
    Publishers.TryContainsWhere(upstream: self, predicate: predicate)
  }
}

/// `tryContains(where:)`: the first match ends the stream with `true`; a thrown error fails it.
@usableFromInline
internal struct TryContainsWhereLogic<Input>: ReducingLogic {
  @usableFromInline internal let predicate: (Input) throws -> Bool

  @inlinable
  internal init(predicate: @escaping (Input) throws -> Bool) {
    self.predicate = predicate
  }

  @inlinable
  internal static var name: String { "TryContainsWhere" }

  @inlinable
  internal var initial: Bool? { false }

  @inlinable
  internal mutating func reduce(_ input: Input) -> ReducingStep<Bool, any Error> {
    do {
      return try predicate(input) ? .finish(true) : .proceed
    } catch {
      return .fail(error)
    }
  }

  @inlinable
  internal mutating func finish() -> Bool? { false }
}
