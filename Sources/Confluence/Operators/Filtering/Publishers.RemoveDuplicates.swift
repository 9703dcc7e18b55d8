extension Publishers {
  /// A publisher that publishes only elements that don’t match the previous element.
  ///
  /// Each element is compared with the element upstream sent just before it (whether or
  /// not that one was published); the first element is always published.
  ///
  /// ```swift
  /// let cancellable = [1, 1, 2, 2, 2, 3, 1].publisher
  ///   .removeDuplicates()
  ///   .sink { print($0) }   // 1, 2, 3, 1
  /// ```
  ///
  /// Back-pressure: passes downstream demand upstream and asks upstream for one more
  /// element (`.max(1)`) for each duplicate it drops. Its subscription is shown as
  /// `RemoveDuplicates` by `print`.
  @_eagerMove
  public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure to evaluate whether two elements are equivalent, for purposes of
    /// filtering.
    public let predicate: (Upstream.Output, Upstream.Output) -> Bool

    /// Creates a publisher that publishes only elements that don’t match the previous
    /// element, as evaluated by a provided closure.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - predicate: A closure to evaluate whether two elements are equivalent, for
    ///     purposes of filtering. Return `true` from this closure to indicate that the
    ///     second element is a duplicate of the first.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        FilteringSubscription(
          downstream: subscriber, logic: RemoveDuplicatesLogic<Output, Failure>(predicate: predicate)))
    }
  }
}

extension Publisher where Output: Equatable {
  /// Publishes only elements that don’t match the previous element.
  ///
  /// Use `removeDuplicates()` to remove repeating elements from an upstream publisher.
  /// This operator has a two-element memory: the operator uses the current and previously
  /// published elements as the basis for its comparison.
  ///
  /// ```swift
  /// let numbers = [0, 1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 0]
  /// cancellable = numbers.publisher
  ///   .removeDuplicates()
  ///   .sink { print("\($0)", terminator: " ") }
  /// // Prints: "0 1 2 3 4 0"
  /// ```
  ///
  /// Back-pressure: requests one more element upstream for each duplicate it drops.
  ///
  /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
  @inlinable
  public consuming func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
    Publishers.RemoveDuplicates(upstream: self, predicate: ==)
  }
}

extension Publisher {
  /// Publishes only elements that don’t match the previous element, as evaluated by a
  /// provided closure.
  ///
  /// Use `removeDuplicates(by:)` to remove repeating elements from an upstream publisher
  /// based upon the evaluation of the current and previously published elements using a
  /// closure you provide.
  ///
  /// ```swift
  /// struct Point {
  ///   let x: Int
  ///   let y: Int
  /// }
  /// let points = [Point(x: 0, y: 0), Point(x: 0, y: 1), Point(x: 1, y: 1), Point(x: 2, y: 1)]
  /// cancellable = points.publisher
  ///   .removeDuplicates { prev, current in
  ///     // Considers points to be duplicate if the x coordinate is equal, and ignores the y coordinate
  ///     prev.x == current.x
  ///   }
  ///   .sink { print("\($0)", terminator: " ") }
  /// // Prints: Point(x: 0, y: 0) Point(x: 1, y: 1) Point(x: 2, y: 1)
  /// ```
  ///
  /// Back-pressure: requests one more element upstream for each duplicate it drops.
  ///
  /// - Parameter predicate: A closure to evaluate whether two elements are equivalent,
  ///   for purposes of filtering. Return `true` from this closure to indicate that the
  ///   second element is a duplicate of the first.
  /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
  @inlinable
  public consuming func removeDuplicates(
    by predicate: @escaping (Output, Output) -> Bool
  ) -> Publishers.RemoveDuplicates<Self> {
    Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
  }
}

/// `removeDuplicates`' per-value decision: skip a value the predicate deems equal to the
/// one before it.
@usableFromInline
internal struct RemoveDuplicatesLogic<Input, Failure: Error>: FilteringLogic {
  @usableFromInline internal typealias Output = Input
  @usableFromInline internal typealias UpstreamFailure = Failure

  @usableFromInline
  internal let predicate: (Input, Input) -> Bool

  /// The element upstream sent last.
  @usableFromInline
  internal var previous: Input?

  @inlinable
  internal init(predicate: @escaping (Input, Input) -> Bool) {
    self.predicate = predicate
  }

  @inlinable
  internal static var name: String { "RemoveDuplicates" }

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
    if let last, predicate(last, input) { return .skipped }
    return .published(target.receive(input))
  }

  @inlinable
  internal func convert(_ failure: Failure) -> Failure { failure }
}
