extension Publishers {
  /// A publisher that publishes only elements that don’t match the previous element, as
  /// evaluated by a provided error-throwing closure.
  ///
  /// If the closure throws, the publisher cancels its upstream and fails with the error.
  ///
  /// ```swift
  /// struct BadValue: Error {}
  /// let cancellable = [1, 1, 2, -1].publisher
  ///   .tryRemoveDuplicates { previous, current in
  ///     if current < 0 { throw BadValue() }
  ///     return previous == current
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // 1, 2, failure(BadValue())
  /// ```
  ///
  /// Back-pressure: passes downstream demand upstream and asks upstream for one more
  /// element (`.max(1)`) for each duplicate it drops. Its subscription is shown as
  /// `TryRemoveDuplicates` by `print`.
  @_eagerMove
  public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// An error-throwing closure to evaluate whether two elements are equivalent, for
    /// purposes of filtering.
    public let predicate: (Upstream.Output, Upstream.Output) throws -> Bool

    /// Creates a publisher that publishes only elements that don’t match the previous
    /// element, as evaluated by a provided error-throwing closure.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - predicate: An error-throwing closure to evaluate whether two elements are
    ///     equivalent, for purposes of filtering. Return `true` from this closure to
    ///     indicate that the second element is a duplicate of the first. If this closure
    ///     throws an error, the publisher terminates with the thrown error.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        FilteringSubscription(
          downstream: subscriber, logic: TryRemoveDuplicatesLogic<Output, Upstream.Failure>(predicate: predicate)))
    }
  }
}

extension Publisher {
  /// Publishes only elements that don’t match the previous element, as evaluated by a
  /// provided error-throwing closure.
  ///
  /// Use `tryRemoveDuplicates(by:)` to remove repeating elements from an upstream
  /// publisher based upon the evaluation of elements using an error-throwing closure you
  /// provide. If your closure throws an error, the publisher terminates with the error.
  ///
  /// ```swift
  /// struct BadValuesError: Error {}
  /// let numbers = [0, 0, 0, 0, 1, 2, 2, 3, 3, 3, 4, 4, 4, 4]
  /// cancellable = numbers.publisher
  ///   .tryRemoveDuplicates { first, second -> Bool in
  ///     if (first == 4 && second == 4) {
  ///       throw BadValuesError()
  ///     }
  ///     return first == second
  ///   }
  ///   .sink(
  ///     receiveCompletion: { print ("\($0)") },
  ///     receiveValue: { print ("\($0)", terminator: " ") }
  ///   )
  /// // Prints: "0 1 2 3 4 failure(BadValuesError()"
  /// ```
  ///
  /// Back-pressure: requests one more element upstream for each duplicate it drops; a
  /// thrown error cancels upstream.
  ///
  /// - Parameter predicate: A closure to evaluate whether two elements are equivalent,
  ///   for purposes of filtering. Return `true` from this closure to indicate that the
  ///   second element is a duplicate of the first. If this closure throws an error, the
  ///   publisher terminates with the thrown error.
  /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
  @inlinable
  public consuming func tryRemoveDuplicates(
    by predicate: @escaping (Output, Output) throws -> Bool
  ) -> Publishers.TryRemoveDuplicates<Self> {
    Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
  }
}

/// `tryRemoveDuplicates`' per-value decision: skip a value the predicate deems equal to
/// the one before it, or fail with what the predicate threw.
@usableFromInline
internal struct TryRemoveDuplicatesLogic<Input, UpstreamFailure: Error>: FilteringLogic {
  @usableFromInline internal typealias Output = Input
  @usableFromInline internal typealias Failure = any Error

  @usableFromInline
  internal let predicate: (Input, Input) throws -> Bool

  /// The element upstream sent last.
  @usableFromInline
  internal var previous: Input?

  @inlinable
  internal init(predicate: @escaping (Input, Input) throws -> Bool) {
    self.predicate = predicate
  }

  @inlinable
  internal static var name: String { "TryRemoveDuplicates" }

  @inlinable
  internal static var edges: FilteringEdges { .strict }

  @inlinable
  internal func reflectedChildren(downstream: Any, status: String) -> KeyValuePairs<String, Any> {
    ["downstream": downstream, "last": previous as Any]
  }

  @inlinable
  @inline(__always)
  internal mutating func receive<Target: Subscriber>(_ input: Input, to target: borrowing Target) -> FilteringVerdict
  where Target.Input == Input {
    let last = previous
    previous = input  // Before publishing: a value sent from inside `target.receive` compares with this one.
    do {
      if let last, try predicate(last, input) { return .skipped }
    } catch {
      return .failed(error)
    }
    return .published(target.receive(input))
  }

  @inlinable
  internal func convert(_ failure: UpstreamFailure) -> any Error { failure }
}
