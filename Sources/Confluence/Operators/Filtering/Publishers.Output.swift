extension Publishers {
  /// A publisher that publishes elements specified by a range in the sequence of
  /// published elements.
  ///
  /// Elements are counted from 0. Those before the range are dropped; after the last one
  /// in the range it cancels upstream and finishes. If upstream completes first, the
  /// completion is passed on.
  ///
  /// ```swift
  /// let cancellable = (10...20).publisher
  ///   .output(in: 2..<4)
  ///   .sink { print($0) }   // 12, 13
  /// ```
  ///
  /// Back-pressure: passes downstream demand upstream and asks upstream for one more
  /// element (`.max(1)`) for each element before the range. Its subscription is shown as
  /// `Output` by `print`.
  @_eagerMove
  public struct Output<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives its elements.
    public let upstream: Upstream

    /// The range of elements to publish.
    public let range: CountableRange<Int>

    /// Creates a publisher that publishes elements specified by a range.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives its elements.
    ///   - range: The range of elements to publish; its lower bound must not be negative.
    @inlinable
    public init(upstream: Upstream, range: CountableRange<Int>) {
      confluencePrecondition(
        range.lowerBound >= 0, "Publishers.Output: the range must not start below 0 (got \(range))")
      self.upstream = upstream
      self.range = range
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        FilteringSubscription(downstream: subscriber, logic: OutputLogic<Output, Failure>(range: range)))
    }
  }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}

extension Publisher {
  /// Publishes a specific element, indicated by its index in the sequence of published
  /// elements.
  ///
  /// Use `output(at:)` when you need to republish a specific element specified by its
  /// position in the stream. If the publisher completes normally or with an error before
  /// publishing the specified element, then the publisher doesn’t produce any elements.
  ///
  /// ```swift
  /// let numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
  /// cancellable = numbers.publisher
  ///   .output(at: 5)
  ///   .sink { print("\($0)") }
  /// // Prints: "6"
  /// ```
  ///
  /// Back-pressure: requests one more element upstream for each element before `index`;
  /// cancels upstream once it has published the element.
  ///
  /// - Parameter index: The index that indicates the element to publish; must not be
  ///   negative.
  /// - Returns: A publisher that publishes a specific indexed element.
  @inlinable
  public consuming func output(at index: Int) -> Publishers.Output<Self> {
    confluencePrecondition(index >= 0, "output(at:): index must not be negative (got \(index))")
    return output(in: index...index)
  }

  /// Publishes elements specified by their range in the sequence of published elements.
  ///
  /// Use `output(in:)` to republish a range indices you specify in the published stream.
  /// After publishing all elements, the publisher finishes normally. If the publisher
  /// completes normally or with an error before producing all the elements in the range,
  /// it doesn’t publish the remaining elements.
  ///
  /// ```swift
  /// let numbers = [1, 1, 2, 2, 2, 3, 4, 5, 6]
  /// numbers.publisher
  ///   .output(in: (3...5))
  ///   .sink { print("\($0)", terminator: " ") }
  ///   .store(in: &subscriptions)
  /// // Prints: "2 2 3 "
  /// ```
  ///
  /// Back-pressure: requests one more element upstream for each element before the range;
  /// cancels upstream once it has published the last element in the range.
  ///
  /// - Parameter range: A range that indicates which elements to publish; it must not
  ///   start below 0.
  /// - Returns: A publisher that publishes elements specified by a range.
  @inlinable
  public consuming func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
    Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
  }

  /// Republishes elements up to the specified maximum count.
  ///
  /// Use `prefix(_:)` to limit the number of elements republished to the downstream
  /// subscriber.
  ///
  /// ```swift
  /// let numbers = (0...10)
  /// cancellable = numbers.publisher
  ///   .prefix(2)
  ///   .sink { print("\($0)", terminator: " ") }
  /// // Prints: "0 1"
  /// ```
  ///
  /// Back-pressure: passes demand through; cancels upstream and finishes once it has
  /// published `maxLength` elements.
  ///
  /// - Parameter maxLength: The maximum number of elements to republish; must not be
  ///   negative.
  /// - Returns: A publisher that publishes up to the specified number of elements before
  ///   completing.
  @inlinable
  public consuming func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
    confluencePrecondition(maxLength >= 0, "prefix(_:): maxLength must not be negative (got \(maxLength))")
    return output(in: ..<maxLength)
  }
}

/// `output(in:)`'s per-value decision: skip before the range, publish inside it, and
/// finish after its last element (or at once, for an element past an empty range).
@usableFromInline
internal struct OutputLogic<Input, Failure: Error>: FilteringLogic {
  @usableFromInline internal typealias Output = Input
  @usableFromInline internal typealias UpstreamFailure = Failure

  @usableFromInline
  internal let range: CountableRange<Int>

  /// The index of the next element upstream sends.
  @usableFromInline
  internal var index = 0

  @inlinable
  internal init(range: CountableRange<Int>) {
    self.range = range
  }

  @inlinable
  internal static var name: String { "Output" }

  @inlinable
  internal static var edges: FilteringEdges { .stateless }

  @inlinable
  internal func reflectedChildren(downstream: Any, status: String) -> KeyValuePairs<String, Any> {
    [:]
  }

  @inlinable
  @inline(__always)
  internal mutating func receive<Target: Subscriber>(_ input: Input, to target: borrowing Target) -> FilteringVerdict
  where Target.Input == Input {
    let current = index
    if current >= range.upperBound { return .finished }
    index = current + 1
    if current < range.lowerBound { return .skipped }
    return current == range.upperBound - 1
      ? .publishedAndFinished(target.receive(input)) : .published(target.receive(input))
  }

  @inlinable
  internal func convert(_ failure: Failure) -> Failure { failure }
}
