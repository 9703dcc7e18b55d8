extension Publishers {
  /// A publisher that republishes all elements that match a provided closure.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3, 4, 5].publisher
  ///   .filter { $0 % 2 == 0 }
  ///   .sink { print($0) }   // 2, 4
  /// ```
  ///
  /// Back-pressure: passes downstream demand upstream; for each element it drops it asks
  /// upstream for one more (`.max(1)`), so downstream still receives what it asked for.
  /// Its subscription is shown as `Filter` by `print`.
  @_eagerMove
  public struct Filter<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that indicates whether to republish an element.
    public let isIncluded: (Upstream.Output) -> Bool

    /// Creates a publisher that republishes the elements that match `isIncluded`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - isIncluded: A closure that indicates whether to republish an element.
    @inlinable
    public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.isIncluded = isIncluded
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      _receiveRelay(subscriber)
    }

    /// Hands `relay` on to `upstream`'s `_subscribeFiltering(_:isIncluded:)`, which moves it
    /// into the relay it makes (see `Publisher._receiveRelay(_:)`).
    ///
    /// - Parameter relay: A subscriber the caller made for this call and keeps no copy of.
    @inlinable
    @inline(__always)
    public func _receiveRelay<S: Subscriber>(_ relay: consuming S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeFiltering(relay, isIncluded: isIncluded)
    }

    /// Hands a `map` → `filter` pair subscribed to this filter on to `upstream`'s
    /// `_subscribeFilteringMapFiltering(_:isIncluded:then:isIncluded:)` with this filter's
    /// test (see `Publisher._subscribeMapFiltering(_:transform:isIncluded:)`).
    ///
    /// - Parameters:
    ///   - subscriber: What the pair's `filter` was subscribed with.
    ///   - transform: The pair's map closure.
    ///   - thenIsIncluded: The pair's filter test.
    @inlinable
    @inline(never)
    public func _subscribeMapFiltering<S: Subscriber>(
      _ subscriber: consuming S, transform: @escaping (Output) -> S.Input,
      isIncluded thenIsIncluded: @escaping (S.Input) -> Bool
    ) where S.Failure == Failure {
      upstream._subscribeFilteringMapFiltering(
        subscriber, isIncluded: isIncluded, then: transform, isIncluded: thenIsIncluded)
    }
  }
}

extension Publisher {
  /// Republishes all elements that match a provided closure.
  ///
  /// Combine’s `filter(_:)` operator performs an operation similar to that of `filter(_:)`
  /// in the Swift Standard Library: it uses a closure to test each element to determine
  /// whether to republish the element to the downstream subscriber.
  ///
  /// ```swift
  /// let numbers: [Int] = [1, 2, 3, 4, 5]
  /// cancellable = numbers.publisher
  ///   .filter { $0 % 2 == 0 }
  ///   .sink { print("\($0)", terminator: " ") }
  /// // Prints: "2 4"
  /// ```
  ///
  /// Back-pressure: requests one more element upstream for each element it drops.
  ///
  /// - Parameter isIncluded: A closure that takes one element and returns a Boolean value
  ///   indicating whether to republish the element.
  /// - Returns: A publisher that republishes all elements that satisfy the closure.
  @inlinable
  public consuming func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
    Publishers.Filter(upstream: self, isIncluded: isIncluded)
  }
}

extension Publishers.Filter {
  /// Fuses two filters into one: `filter(p).filter(q)` becomes `filter { p($0) && q($0) }`.
  ///
  /// ```swift
  /// let evenAndSmall = numbers.publisher.filter { $0 % 2 == 0 }.filter { $0 < 10 }
  /// ```
  ///
  /// - Parameter isIncluded: A closure that takes one element and returns whether to
  ///   republish it; called only for elements this filter already includes.
  /// - Returns: One `Filter` on the same upstream that applies both closures.
  @inlinable
  public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
    let first = self.isIncluded
    return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
  }

  /// Fuses this filter with an error-throwing filter into one ``Publishers/TryFilter``.
  ///
  /// ```swift
  /// let checked = numbers.publisher.filter { $0 > 0 }.tryFilter { try validate($0) }
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

/// What `Filter` subscribes upstream: a relay, as Apple's is. The upstream's subscription
/// goes straight to the downstream (which requests from and cancels it directly), every
/// completion is passed on as it comes, and each value is tested and either passed on or
/// answered with `.max(1)` — no state, no lock. Shown as "Filter" with an empty mirror.
@usableFromInline
internal final class FilterSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline
  internal let downstream: Downstream

  @usableFromInline
  internal let isIncluded: (Input) -> Bool

  @inlinable
  internal init(downstream: Downstream, isIncluded: @escaping (Input) -> Bool) {
    self.downstream = downstream
    self.isIncluded = isIncluded
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    downstream.receive(subscription: subscription)
  }

  /// Always inlined: a one-call value path (Benchmarks/README.md, "Long pipelines", point 7).
  /// The downstream is read before the predicate runs, so that a chain of stages finds the
  /// next stage's address and closure before each call rather than after it returns
  /// (point 10: on this machine's processor that difference is three times the time of a
  /// twelve-stage chain).
  @inlinable
  @inline(__always)
  internal func receive(_ input: Input) -> Subscribers.Demand {
    if _isConcrete(Downstream.self) {
      let next = downstream
      return isIncluded(input) ? next.receive(input) : .max(1)
    }
    return relayIfIncluded(downstream, input, isIncluded)
  }

  /// Passes a run on, with the values it drops marked as dropped (see
  /// `Subscriber._receiveRun(nextRunsNoUserCode:_:)`).
  @inlinable
  @inline(__always)
  internal func _receiveRun(nextRunsNoUserCode: Bool, _ next: () -> Input??) {
    downstream._receiveRun(nextRunsNoUserCode: false) {
      runStep(next) { input in isIncluded(input) ? input : .some(nil) }
    }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }

  @usableFromInline
  internal var description: String { "Filter" }

  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
