extension Publishers {
  /// A publisher that republishes all elements that match a provided error-throwing
  /// closure.
  ///
  /// If the closure throws, the publisher cancels its upstream and fails with the error.
  ///
  /// ```swift
  /// struct ZeroError: Error {}
  /// let cancellable = [1, 2, 3, 4, 0, 5].publisher
  ///   .tryFilter { value in
  ///     if value == 0 { throw ZeroError() }
  ///     return value % 2 == 0
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // 2, 4, failure(ZeroError())
  /// ```
  ///
  /// Back-pressure: passes downstream demand upstream and asks upstream for one more
  /// element (`.max(1)`) for each element it drops. Its subscription is shown as
  /// `TryFilter` by `print`.
  @_eagerMove
  public struct TryFilter<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// An error-throwing closure that indicates whether this filter should republish an
    /// element.
    public let isIncluded: (Upstream.Output) throws -> Bool

    /// Creates a publisher that republishes all elements that match a provided
    /// error-throwing closure.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - isIncluded: An error-throwing closure that indicates whether this filter should
    ///     republish an element.
    @inlinable
    public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.isIncluded = isIncluded
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(
        FilteringSubscription(
          downstream: subscriber, logic: TryFilterLogic<Output, Upstream.Failure>(isIncluded: isIncluded)))
    }
  }
}

extension Publisher {
  /// Republishes all elements that match a provided error-throwing closure.
  ///
  /// Use `tryFilter(_:)` to filter elements evaluated in an error-throwing closure. If the
  /// `isIncluded` closure throws an error, the publisher fails with that error.
  ///
  /// ```swift
  /// struct ZeroError: Error {}
  /// let numbers: [Int] = [1, 2, 3, 4, 0, 5]
  /// cancellable = numbers.publisher
  ///   .tryFilter {
  ///     if $0 == 0 { throw ZeroError() } else { return $0 % 2 == 0 }
  ///   }
  ///   .sink(
  ///     receiveCompletion: { print ("\($0)") },
  ///     receiveValue: { print ("\($0)", terminator: " ") }
  ///   )
  /// // Prints: "2 4 failure(DivisionByZeroError())".
  /// ```
  ///
  /// Back-pressure: requests one more element upstream for each element it drops; a
  /// thrown error cancels upstream.
  ///
  /// - Parameter isIncluded: A closure that takes one element and returns a Boolean value
  ///   that indicated whether to republish the element or throws an error.
  /// - Returns: A publisher that republishes all elements that satisfy the closure.
  @inlinable
  public consuming func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
    Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
  }
}

extension Publishers.TryFilter {
  /// Fuses this error-throwing filter with a filter into one `TryFilter`.
  ///
  /// ```swift
  /// let checked = numbers.publisher.tryFilter { try validate($0) }.filter { $0 < 10 }
  /// ```
  ///
  /// - Parameter isIncluded: A closure called only for elements this filter already
  ///   includes.
  /// - Returns: One `TryFilter` on the same upstream that applies both closures.
  @inlinable
  public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
    let first = self.isIncluded
    return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
  }

  /// Fuses two error-throwing filters into one `TryFilter`.
  ///
  /// ```swift
  /// let checked = numbers.publisher.tryFilter { try isValid($0) }.tryFilter { try isAllowed($0) }
  /// ```
  ///
  /// - Parameter isIncluded: An error-throwing closure called only for elements this
  ///   filter already includes.
  /// - Returns: One `TryFilter` on the same upstream that applies both closures.
  @inlinable
  public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
    let first = self.isIncluded
    return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
  }
}

/// `tryFilter`'s per-value decision: publish, skip, or fail with what the closure threw.
@usableFromInline
internal struct TryFilterLogic<Input, UpstreamFailure: Error>: FilteringLogic {
  @usableFromInline internal typealias Output = Input
  @usableFromInline internal typealias Failure = any Error

  @usableFromInline
  internal let isIncluded: (Input) throws -> Bool

  @inlinable
  internal init(isIncluded: @escaping (Input) throws -> Bool) {
    self.isIncluded = isIncluded
  }

  @inlinable
  internal static var name: String { "TryFilter" }

  @inlinable
  internal static var edges: FilteringEdges { .strict }

  @inlinable
  @inline(__always)
  internal func receive<Target: Subscriber>(_ input: Input, to target: borrowing Target) -> FilteringVerdict
  where Target.Input == Input {
    let included: Bool
    do {
      included = try isIncluded(input)
    } catch {
      return .failed(error)
    }
    return included ? .published(target.receive(input)) : .skipped
  }

  @inlinable
  internal func convert(_ failure: UpstreamFailure) -> any Error { failure }
}
