extension Publishers {
  /// A publisher that only publishes the last element of a stream that satisfies an error-throwing
  /// predicate closure, once the stream finishes.
  ///
  /// If the predicate throws, the publisher cancels upstream and fails with the error.
  ///
  /// ```swift
  /// let cancellable = ["a", "dddd", "boom"].publisher
  ///   .tryLast { value in
  ///     if value == "boom" { throw TestExampleError.invalidValue }
  ///     return value.count > 3
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // failure(TestExampleError.invalidValue)
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream; keeps only the latest match, and publishes it once
  /// upstream finished and downstream has demand.
  @_eagerMove
  public struct TryLastWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that determines whether to publish an element.
    public let predicate: (Publishers.TryLastWhere<Upstream>.Output) throws -> Bool

    /// Creates a publisher that publishes the last element of `upstream` that satisfies the throwing
    /// `predicate`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - predicate: The error-throwing closure that determines whether to publish an element.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Publishers.TryLastWhere<Upstream>.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        ReducingSubscription<_, Upstream.Failure, S>(
          downstream: subscriber, logic: TryLastWhereLogic<Upstream.Output>(predicate: predicate),
          convertFailure: { $0 }))
    }
  }
}

extension Publisher {
  /// Publishes the last element of a stream that satisfies an error-throwing predicate closure,
  /// after the stream finishes.
  ///
  /// If the predicate closure throws an error, the publisher fails with the error.
  ///
  /// ```swift
  /// struct RangeError: Error {}
  /// let numbers = [-62, 1, 6, 10, 9, 22, 41, -1, 5]
  /// cancellable = numbers.publisher
  ///   .tryLast {
  ///     guard $0 > 0 else { throw RangeError() }
  ///     return true
  ///   }
  ///   .sink(
  ///     receiveCompletion: { print ("completion: \($0)", terminator: " ") },
  ///     receiveValue: { print ("\($0)", terminator: " ") }
  ///   )
  /// // Prints: "completion: failure(RangeError())"
  /// ```
  ///
  /// - Parameter predicate: A closure that takes an element as its parameter and returns a
  ///   Boolean value that indicates whether to publish the element.
  /// - Returns: A publisher that only publishes the last element satisfying the given
  ///   predicate.
  @inlinable
  public consuming func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
    Publishers.TryLastWhere(upstream: self, predicate: predicate)
  }
}

/// `tryLast(where:)`: keeps the latest match; a thrown error fails the stream.
@usableFromInline
internal struct TryLastWhereLogic<Input>: ReducingLogic {
  @usableFromInline internal let predicate: (Input) throws -> Bool
  @usableFromInline internal var latest: Input?

  @inlinable
  internal init(predicate: @escaping (Input) throws -> Bool) {
    self.predicate = predicate
  }

  @inlinable
  internal static var name: String { "TryLastWhere" }

  @inlinable
  internal mutating func reduce(_ input: Input) -> ReducingStep<Input, any Error> {
    do {
      if try predicate(input) {
        latest = input
      }
      return .proceed
    } catch {
      latest = nil
      return .fail(error)
    }
  }

  @inlinable
  internal mutating func finish() -> Input? {
    defer { latest = nil }
    return latest
  }
}
