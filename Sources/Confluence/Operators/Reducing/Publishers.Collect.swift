extension Publishers {
  /// A publisher that buffers items.
  ///
  /// Collects every element from upstream and, when upstream finishes, publishes them as
  /// one array. If upstream fails, the failure is forwarded and nothing is published.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher
  ///   .collect()
  ///   .sink { print($0) }   // [1, 2, 3]
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream; publishes the array once downstream
  /// has requested at least one value.
  ///
  /// - Complexity: O(*n*) memory for *n* upstream elements (unbounded).
  @_eagerMove
  public struct Collect<Upstream: Publisher>: Publisher {
    public typealias Output = [Upstream.Output]
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that collects every element of `upstream` into an array.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        ReducingSubscription(downstream: subscriber, logic: CollectLogic<Upstream.Output, Failure>()))
    }
  }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}

extension Publisher {
  /// Collects all received elements, and emits a single array of the collection when the
  /// upstream publisher finishes.
  ///
  /// If the upstream publisher fails with an error, this publisher forwards the error to
  /// the downstream receiver instead of sending its output.
  ///
  /// ```swift
  /// let numbers = (0...10)
  /// cancellable = numbers.publisher
  ///   .collect()
  ///   .sink { print("\($0)") }
  /// // Prints: "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]"
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream.
  ///
  /// - Complexity: Uses an unbounded amount of memory to store the received values.
  /// - Returns: A publisher that collects all received items and returns them as an array
  ///   upon completion.
  @inlinable
  public consuming func collect() -> Publishers.Collect<Self> {
    Publishers.Collect(upstream: self)
  }
}

/// `collect()`: appends every value; publishes the array when upstream finishes.
@usableFromInline
internal struct CollectLogic<Element, Failure: Error>: ReducingLogic {
  @usableFromInline
  internal var elements: [Element] = []

  @inlinable
  internal init() {}

  @inlinable
  internal static var name: String { "Collect" }

  /// As Apple's, the mirror shows only how many values the result holds (`0` while
  /// upstream runs: the array is read by upstream events alone, without a lock).
  @inlinable
  internal static func mirrorChildren(
    downstream: Any, result: [Element]?, initial: [Element]?, status: Any
  ) -> [Mirror.Child] {
    [("count", result?.count ?? 0)]
  }

  @inlinable
  internal mutating func reduce(_ input: Element) -> ReducingStep<[Element], Failure> {
    elements.append(input)
    return .proceed
  }

  @inlinable
  internal mutating func finish() -> [Element]? {
    defer { elements = [] }
    return elements
  }
}
