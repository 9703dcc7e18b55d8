extension Publishers {
  /// A publisher that publishes a single Boolean value that indicates whether all received elements
  /// pass a given error-throwing predicate.
  ///
  /// At the first element that fails the predicate, the publisher cancels upstream, publishes `false`
  /// and finishes; if upstream finishes first, it publishes `true`. If the predicate throws, it cancels
  /// upstream and fails.
  ///
  /// ```swift
  /// let cancellable = [2, 4, 6].publisher
  ///   .tryAllSatisfy { value in
  ///     guard value != 0 else { throw ZeroError() }
  ///     return value.isMultiple(of: 2)
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })   // true, finished
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream, cancels it at the first failing element or error, and
  /// publishes the answer once downstream has demand.
  @_eagerMove
  public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
    public typealias Output = Bool
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that evaluates each received element.
    ///
    /// Return `true` to continue, or `false` to cancel the upstream and complete. The closure may
    /// throw, in which case the publisher cancels the upstream publisher and fails with the thrown
    /// error.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a publisher that publishes whether all elements of `upstream` pass the throwing
    /// `predicate`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - predicate: A closure that evaluates each received element.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        ReducingSubscription<_, Upstream.Failure, S>(
          downstream: subscriber, logic: TryAllSatisfyLogic<Upstream.Output>(predicate: predicate),
          convertFailure: { $0 }
        ))
    }
  }
}

extension Publisher {
  /// Publishes a single Boolean value that indicates whether all received elements pass a given
  /// error-throwing predicate.
  ///
  /// If the predicate returns `false`, the publisher produces a `false` value and finishes; if
  /// it throws, the publisher fails with the error. If upstream finishes normally, the
  /// publisher produces a `true` value and finishes.
  ///
  /// ```swift
  /// struct RangeError: Error {}
  /// let targetRange = (-1...100)
  /// let numbers = [-1, 10, 101, 5]
  /// cancellable = numbers.publisher
  ///   .tryAllSatisfy {
  ///     guard targetRange.contains($0) else { throw RangeError() }
  ///     return true
  ///   }
  ///   .sink(
  ///     receiveCompletion: { print ("completion: \($0)") },
  ///     receiveValue: { print ("value: \($0)") }
  ///   )
  /// // Prints: "completion: failure(RangeError())"
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream and cancels it at the first failing
  /// element or error.
  ///
  /// - Parameter predicate: A closure that evaluates each received element. Return `true` to
  ///   continue, or `false` to cancel the upstream and complete. The closure may throw an
  ///   error, in which case the publisher cancels the upstream publisher and fails with the
  ///   thrown error.
  /// - Returns: A publisher that publishes a Boolean value that indicates whether all received
  ///   elements pass a given predicate.
  @inlinable
  public consuming func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self>
  {
    Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
  }
}

/// `tryAllSatisfy(_:)`: the first failing value ends the stream with `false`; a thrown error
/// fails it.
@usableFromInline
internal struct TryAllSatisfyLogic<Input>: ReducingLogic {
  @usableFromInline internal let predicate: (Input) throws -> Bool

  @inlinable
  internal init(predicate: @escaping (Input) throws -> Bool) {
    self.predicate = predicate
  }

  @inlinable
  internal static var name: String { "TryAllSatisfy" }

  @inlinable
  internal var initial: Bool? { true }

  @inlinable
  internal mutating func reduce(_ input: Input) -> ReducingStep<Bool, any Error> {
    do {
      return try predicate(input) ? .proceed : .finish(false)
    } catch {
      return .fail(error)
    }
  }

  @inlinable
  internal mutating func finish() -> Bool? { true }
}
