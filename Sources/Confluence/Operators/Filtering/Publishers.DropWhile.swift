extension Publishers {
  /// A publisher that omits elements from an upstream publisher until a given closure
  /// returns false.
  ///
  /// Once the closure returns `false` it is not called again: every later element is
  /// republished.
  ///
  /// ```swift
  /// let cancellable = [-2, -1, 0, 1, -5].publisher
  ///   .drop { $0 < 0 }
  ///   .sink { print($0) }   // 0, 1, -5
  /// ```
  ///
  /// Back-pressure: passes downstream demand upstream and asks upstream for one more
  /// element (`.max(1)`) for each element it drops. Its subscription is shown as
  /// `DropWhile` by `print`.
  @_eagerMove
  public struct DropWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that indicates whether to drop the element.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a publisher that omits elements from an upstream publisher until a given
    /// closure returns false.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - predicate: The closure that indicates whether to drop the element.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        FilteringSubscription(
          downstream: subscriber, logic: DropWhileLogic<Output, Failure>(predicate: predicate)))
    }
  }
}

extension Publisher {
  /// Omits elements from the upstream publisher until a given closure returns false,
  /// before republishing all remaining elements.
  ///
  /// Use `drop(while:)` to omit elements from an upstream publisher until the element
  /// received meets a condition you specify.
  ///
  /// ```swift
  /// let numbers = [-62, -1, 0, 10, 0, 22, 41, -1, 5]
  /// cancellable = numbers.publisher
  ///   .drop { $0 <= 0 }
  ///   .sink { print("\($0)") }
  /// // Prints: "10 0, 22 41 -1 5"
  /// ```
  ///
  /// Back-pressure: requests one more element upstream for each element it drops.
  ///
  /// - Parameter predicate: A closure that takes an element as a parameter and returns a
  ///   Boolean value indicating whether to drop the element from the publisher’s output.
  /// - Returns: A publisher that skips over elements until the provided closure returns
  ///   `false`.
  @inlinable
  public consuming func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
    Publishers.DropWhile(upstream: self, predicate: predicate)
  }
}

/// `drop(while:)`'s per-value decision: skip while the predicate holds, then publish all.
@usableFromInline
internal struct DropWhileLogic<Input, Failure: Error>: FilteringLogic {
  @usableFromInline internal typealias Output = Input
  @usableFromInline internal typealias UpstreamFailure = Failure

  @usableFromInline
  internal let predicate: (Input) -> Bool

  @usableFromInline
  internal var isDropping = true

  @inlinable
  internal init(predicate: @escaping (Input) -> Bool) {
    self.predicate = predicate
  }

  @inlinable
  internal static var name: String { "DropWhile" }

  @inlinable
  internal static var edges: FilteringEdges { .quiet }

  @inlinable
  internal func reflectedChildren(downstream: Any, status: String) -> KeyValuePairs<String, Any> {
    [:]
  }

  @inlinable
  @inline(__always)
  internal mutating func receive<Target: Subscriber>(_ input: Input, to target: borrowing Target) -> FilteringVerdict
  where Target.Input == Input {
    if isDropping {
      if predicate(input) { return .skipped }
      isDropping = false
    }
    return .published(target.receive(input))
  }

  @inlinable
  internal func convert(_ failure: Failure) -> Failure { failure }
}
