extension Publishers {
  /// A publisher that omits elements from an upstream publisher until a given
  /// error-throwing closure returns false.
  ///
  /// Once the closure returns `false` it is not called again. If it throws first, the
  /// publisher cancels its upstream and fails with the error.
  ///
  /// ```swift
  /// struct NotANumber: Error {}
  /// let cancellable = ["", "", "1", "x"].publisher
  ///   .tryDrop { text in
  ///     if text == "x" { throw NotANumber() }
  ///     return text.isEmpty
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // "1", "x", finished
  /// ```
  ///
  /// Back-pressure: passes downstream demand upstream and asks upstream for one more
  /// element (`.max(1)`) for each element it drops. Its subscription is shown as
  /// `TryDropWhile` by `print`.
  @_eagerMove
  public struct TryDropWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that indicates whether to drop the element.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a publisher that omits elements from an upstream publisher until a given
    /// error-throwing closure returns false.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - predicate: The error-throwing closure that indicates whether to drop the
    ///     element.
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
          downstream: subscriber, logic: TryDropWhileLogic<Output, Upstream.Failure>(predicate: predicate)))
    }
  }
}

extension Publisher {
  /// Omits elements from the upstream publisher until an error-throwing closure returns
  /// false, before republishing all remaining elements.
  ///
  /// Use `tryDrop(while:)` to omit elements from an upstream until an error-throwing
  /// closure you provide returns false, after which the remaining items in the stream are
  /// published. If the closure throws, no elements are emitted and the publisher fails
  /// with an error.
  ///
  /// ```swift
  /// struct RangeError: Error {}
  /// var numbers = [1, 2, 3, 4, 5, 6, -1, 7, 8, 9, 10]
  /// let range: CountableClosedRange<Int> = (1...100)
  /// cancellable = numbers.publisher
  ///   .tryDrop {
  ///     guard $0 != 0 else { throw RangeError() }
  ///     return range.contains($0)
  ///   }
  ///   .sink(
  ///     receiveCompletion: { print ("completion: \($0)") },
  ///     receiveValue: { print ("value: \($0)") }
  ///   )
  /// // Prints: "-1 7 8 9 10 completion: finished"
  /// // If instead numbers was [1, 2, 3, 4, 5, 6, 0, -1, 7, 8, 9, 10], tryDrop(while:) would fail with a RangeError.
  /// ```
  ///
  /// Back-pressure: requests one more element upstream for each element it drops; a
  /// thrown error cancels upstream.
  ///
  /// - Parameter predicate: A closure that takes an element as a parameter and returns a
  ///   Boolean value indicating whether to drop the element from the publisher’s output.
  /// - Returns: A publisher that skips over elements until the provided closure returns
  ///   `false`, and then republishes all remaining elements. If the predicate closure
  ///   throws, the publisher fails with an error.
  @inlinable
  public consuming func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
    Publishers.TryDropWhile(upstream: self, predicate: predicate)
  }
}

/// `tryDrop(while:)`'s per-value decision: skip while the predicate holds, then publish
/// all; fail with what the predicate threw.
@usableFromInline
internal struct TryDropWhileLogic<Input, UpstreamFailure: Error>: FilteringLogic {
  @usableFromInline internal typealias Output = Input
  @usableFromInline internal typealias Failure = any Error

  @usableFromInline
  internal let predicate: (Input) throws -> Bool

  @usableFromInline
  internal var isDropping = true

  @inlinable
  internal init(predicate: @escaping (Input) throws -> Bool) {
    self.predicate = predicate
  }

  @inlinable
  internal static var name: String { "TryDropWhile" }

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
      do {
        if try predicate(input) { return .skipped }
      } catch {
        return .failed(error)
      }
      isDropping = false
    }
    return .published(target.receive(input))
  }

  @inlinable
  internal func convert(_ failure: UpstreamFailure) -> any Error { failure }
}
