extension Publishers {
  /// A publisher that republishes items from another publisher only if each new item is in increasing
  /// order from the previously-published item, and fails if the ordering logic throws an error.
  ///
  /// `TryComparison` keeps the greatest element seen under `areInIncreasingOrder` and publishes it when
  /// upstream finishes; `tryMax(by:)` uses it as is and `tryMin(by:)` with the order reversed. If the
  /// closure throws, it cancels upstream and fails with the error.
  ///
  /// ```swift
  /// let cancellable = [3, 1, 4].publisher
  ///   .tryMax { a, b in
  ///     guard a >= 0, b >= 0 else { throw NegativeError() }
  ///     return a < b
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })   // 4, finished
  /// ```
  ///
  /// Back-pressure: requests unlimited from upstream; publishes the result once upstream finished and
  /// downstream has demand.
  @_eagerMove
  public struct TryComparison<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that receives two elements and returns true if they are in increasing order.
    public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

    /// Creates a publisher that publishes the greatest element of `upstream` under the throwing
    /// `areInIncreasingOrder`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - areInIncreasingOrder: A closure that receives two elements and returns true if they are in increasing order.
    @inlinable
    public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.areInIncreasingOrder = areInIncreasingOrder
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        ReducingSubscription<_, Upstream.Failure, S>(
          downstream: subscriber,
          logic: TryComparisonLogic<Upstream.Output>(areInIncreasingOrder: areInIncreasingOrder),
          convertFailure: { $0 }))
    }
  }
}

extension Publisher {
  /// Publishes the minimum value received from the upstream publisher, using the provided
  /// error-throwing closure to order the items.
  ///
  /// If the closure throws, the publisher cancels upstream and fails with the error.
  ///
  /// ```swift
  /// struct IllegalValueError: Error {}
  /// let numbers: [Int] = [0, 10, 6, 13, 22, 22]
  /// numbers.publisher
  ///   .tryMin { first, second -> Bool in
  ///     if first == 13 { throw IllegalValueError() }
  ///     return first < second
  ///   }
  ///   .sink(
  ///     receiveCompletion: { print ("completion: \($0)") },
  ///     receiveValue: { print ("value: \($0)") }
  ///   )
  /// // Prints: "completion: failure(IllegalValueError())"
  /// ```
  ///
  /// - Parameter areInIncreasingOrder: A throwing closure that receives two elements and
  ///   returns `true` if they're in increasing order. If this closure throws, the publisher
  ///   terminates with a ``Subscribers/Completion/failure(_:)``.
  /// - Returns: A publisher that publishes the minimum value.
  @inlinable
  public consuming func tryMin(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
    -> Publishers.TryComparison<Self>
  {
    Publishers.TryComparison(upstream: self) { try areInIncreasingOrder($1, $0) }
  }
}

extension Publisher {
  /// Publishes the maximum value received from the upstream publisher, using the provided
  /// error-throwing closure to order the items.
  ///
  /// If the closure throws, the publisher cancels upstream and fails with the error.
  ///
  /// ```swift
  /// struct IllegalValueError: Error {}
  /// let numbers: [Int] = [0, 10, 6, 13, 22, 22]
  /// cancellable = numbers.publisher
  ///   .tryMax { first, second -> Bool in
  ///     if second == 0 { throw IllegalValueError() }
  ///     return first < second
  ///   }
  ///   .sink(
  ///     receiveCompletion: { print ("completion: \($0)") },
  ///     receiveValue: { print ("value: \($0)") }
  ///   )
  /// // Prints: "value: 22" "completion: finished"
  /// ```
  ///
  /// - Parameter areInIncreasingOrder: A throwing closure that receives two elements and
  ///   returns `true` if they're in increasing order. If this closure throws, the publisher
  ///   terminates with a ``Subscribers/Completion/failure(_:)``.
  /// - Returns: A publisher that publishes the maximum value.
  @inlinable
  public consuming func tryMax(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
    -> Publishers.TryComparison<Self>
  {
    Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
  }
}

/// `tryMin`/`tryMax`: keeps the greatest value under a throwing order; a thrown error fails
/// the stream.
@usableFromInline
internal struct TryComparisonLogic<Input>: ReducingLogic {
  @usableFromInline internal let areInIncreasingOrder: (Input, Input) throws -> Bool
  @usableFromInline internal var best: Input?

  @inlinable
  internal init(areInIncreasingOrder: @escaping (Input, Input) throws -> Bool) {
    self.areInIncreasingOrder = areInIncreasingOrder
  }

  @inlinable
  internal static var name: String { "TryComparison" }

  @inlinable
  internal mutating func reduce(_ input: Input) -> ReducingStep<Input, any Error> {
    guard let current = best else {
      best = input
      return .proceed
    }
    do {
      if try areInIncreasingOrder(current, input) {
        best = input
      }
      return .proceed
    } catch {
      best = nil
      return .fail(error)
    }
  }

  @inlinable
  internal mutating func finish() -> Input? {
    defer { best = nil }
    return best
  }
}
