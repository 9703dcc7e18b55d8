extension Publishers {
  /// A publisher that republishes elements while a predicate closure indicates
  /// publishing should continue.
  ///
  /// At the first element the closure rejects, it cancels upstream and finishes (without
  /// publishing that element).
  ///
  /// ```swift
  /// let cancellable = [1, 2, 5, 3].publisher
  ///   .prefix { $0 < 4 }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // 1, 2, finished
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged. Its subscription is shown as
  /// `PrefixWhile` by `print`.
  @_eagerMove
  public struct PrefixWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that determines whether whether publishing should continue.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a publisher that republishes elements while a predicate closure indicates
    /// publishing should continue.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - predicate: The closure that determines whether whether publishing should
    ///     continue.
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
          downstream: subscriber, logic: PrefixWhileLogic<Output, Failure>(predicate: predicate)))
    }
  }
}

extension Publisher {
  /// Republishes elements while a predicate closure indicates publishing should continue.
  ///
  /// Use `prefix(while:)` to emit values while elements from the upstream publisher meet
  /// a condition you specify. The publisher finishes when the closure returns `false`.
  ///
  /// ```swift
  /// let numbers = (0...10)
  /// numbers.publisher
  ///   .prefix { $0 < 5 }
  ///   .sink { print("\($0)", terminator: " ") }
  ///   .store(in: &subscriptions)
  /// // Prints: "0 1 2 3 4"
  /// ```
  ///
  /// Back-pressure: passes demand through; cancels upstream once the closure returns
  /// `false`.
  ///
  /// - Parameter predicate: A closure that takes an element as its parameter and returns
  ///   a Boolean value that indicates whether publishing should continue.
  /// - Returns: A publisher that passes through elements until the predicate indicates
  ///   publishing should finish.
  @inlinable
  public consuming func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
    Publishers.PrefixWhile(upstream: self, predicate: predicate)
  }
}

/// `prefix(while:)`'s per-value decision: publish while the predicate holds, then finish.
@usableFromInline
internal struct PrefixWhileLogic<Input, Failure: Error>: FilteringLogic {
  @usableFromInline internal typealias Output = Input
  @usableFromInline internal typealias UpstreamFailure = Failure

  @usableFromInline
  internal let predicate: (Input) -> Bool

  @inlinable
  internal init(predicate: @escaping (Input) -> Bool) {
    self.predicate = predicate
  }

  @inlinable
  internal static var name: String { "PrefixWhile" }

  @inlinable
  internal static var edges: FilteringEdges { .strict }

  @inlinable
  @inline(__always)
  internal func receive<Target: Subscriber>(_ input: Input, to target: borrowing Target) -> FilteringVerdict
  where Target.Input == Input {
    predicate(input) ? .published(target.receive(input)) : .finished
  }

  @inlinable
  internal func convert(_ failure: Failure) -> Failure { failure }
}
