extension Publishers {
  /// A publisher that republishes elements while an error-throwing predicate closure
  /// indicates publishing should continue.
  ///
  /// At the first element the closure rejects, it cancels upstream and finishes; if the
  /// closure throws, it cancels upstream and fails with the error.
  ///
  /// ```swift
  /// struct Negative: Error {}
  /// let cancellable = [1, 2, -1, 9].publisher
  ///   .tryPrefix { value in
  ///     if value < 0 { throw Negative() }
  ///     return value < 5
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // 1, 2, failure(Negative())
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged. Its subscription is shown as
  /// `TryPrefixWhile` by `print`.
  @_eagerMove
  public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that determines whether publishing should continue.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a publisher that republishes elements while an error-throwing predicate
    /// closure indicates publishing should continue.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - predicate: The error-throwing closure that determines whether publishing
    ///     should continue.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        FilteringSubscription(
          downstream: subscriber, logic: TryPrefixWhileLogic<Output, Upstream.Failure>(predicate: predicate)))
    }
  }
}

extension Publisher {
  /// Republishes elements while an error-throwing predicate closure indicates publishing
  /// should continue.
  ///
  /// Use `tryPrefix(while:)` to emit values from the upstream publisher that meet a
  /// condition you specify in an error-throwing closure. The publisher finishes when the
  /// closure returns `false`. If the closure throws an error, the publisher fails with
  /// that error.
  ///
  /// ```swift
  /// struct OutOfRangeError: Error {}
  /// let numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -1]
  /// cancellable = numbers.publisher
  ///   .tryPrefix {
  ///     guard $0 != 0 else { throw OutOfRangeError() }
  ///     return $0 <= numbers.max()!
  ///   }
  ///   .sink(
  ///     receiveCompletion: { print ("completion: \($0)", terminator: " ") },
  ///     receiveValue: { print ("\($0)", terminator: " ") }
  ///   )
  /// // Prints: "1 2 3 4 5 6 7 8 9 10 -1 completion: finished"
  /// // If instead numbers was [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0], tryPrefix(while:) would fail with an OutOfRangeError.
  /// ```
  ///
  /// Back-pressure: passes demand through; cancels upstream once the closure returns
  /// `false` or throws.
  ///
  /// - Parameter predicate: A closure that takes an element as its parameter and returns
  ///   a Boolean value indicating whether publishing should continue.
  /// - Returns: A publisher that passes through elements until the predicate throws or
  ///   indicates publishing should finish.
  @inlinable
  public consuming func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self>
  {
    Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
  }
}

/// `tryPrefix(while:)`'s per-value decision: publish while the predicate holds, then
/// finish; fail with what the predicate threw.
@usableFromInline
internal struct TryPrefixWhileLogic<Input, UpstreamFailure: Error>: FilteringLogic {
  @usableFromInline internal typealias Output = Input
  @usableFromInline internal typealias Failure = any Error

  @usableFromInline
  internal let predicate: (Input) throws -> Bool

  @inlinable
  internal init(predicate: @escaping (Input) throws -> Bool) {
    self.predicate = predicate
  }

  @inlinable
  internal static var name: String { "TryPrefixWhile" }

  @inlinable
  internal static var edges: FilteringEdges { .strict }

  @inlinable
  @inline(__always)
  internal func receive<Target: Subscriber>(_ input: Input, to target: borrowing Target) -> FilteringVerdict
  where Target.Input == Input {
    let included: Bool
    do {
      included = try predicate(input)
    } catch {
      return .failed(error)
    }
    return included ? .published(target.receive(input)) : .finished
  }

  @inlinable
  internal func convert(_ failure: UpstreamFailure) -> any Error { failure }
}
