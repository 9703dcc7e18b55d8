extension Publishers {
  /// A publisher that transforms all elements from the upstream publisher with a provided
  /// closure.
  ///
  /// ```swift
  /// let cancellable = subject.map { $0 * 2 }.sink { print($0) }
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged; the upstream subscription is handed
  /// straight to the downstream subscriber (so `print` placed after `map` shows the
  /// upstream's subscription). Costs no allocation or lock per element.
  @_eagerMove
  public struct Map<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that transforms elements from the upstream publisher.
    public let transform: (Upstream.Output) -> Output

    /// Creates a publisher that transforms all elements from the upstream publisher with
    /// a provided closure.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
      self.upstream = upstream
      self.transform = transform
    }

    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      _receiveRelay(subscriber)
    }

    /// Moves `relay` into this `Map`'s own relay, which it hands to `upstream` in turn (see
    /// `Publisher._receiveRelay(_:)`): the relays of a pipeline built reach the publisher
    /// that keeps them without a copy at each stage.
    ///
    /// - Parameter relay: A subscriber the caller made for this call and keeps no copy of.
    @inlinable
    @inline(__always)
    public func _receiveRelay<S: Subscriber>(_ relay: consuming S) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeUpstream(MapSubscriber(downstream: relay, transform: transform))
    }

    /// Subscribes one relay to `upstream` that transforms, tests and passes on each value,
    /// where this `Map`'s relay under `filter`'s would be two: see
    /// `Publisher._subscribeFiltering(_:isIncluded:)`. While an `_Introspection` is enabled,
    /// `filter`'s relay is subscribed to this publisher as usual, so it sees both.
    ///
    /// - Parameters:
    ///   - subscriber: What `filter`'s publisher was subscribed with.
    ///   - isIncluded: The filter's test.
    @inlinable
    @inline(__always)
    public func _subscribeFiltering<S: Subscriber>(_ subscriber: consuming S, isIncluded: @escaping (Output) -> Bool)
    where S.Input == Output, S.Failure == Failure {
      if _slowPath(DebugHook.isActive) {
        subscribeFilteringWatched(subscriber, isIncluded: isIncluded)
      } else if _isConcrete(Upstream.self) && _isConcrete(S.self) {
        upstream._subscribeUpstream(
          MapFilterSubscriber(downstream: subscriber, transform: transform, isIncluded: isIncluded))
      } else {
        subscribeFilteringNotSpecialised(subscriber, isIncluded: isIncluded)
      }
    }

    /// ``_subscribeFiltering(_:isIncluded:)`` while an `_Introspection` is enabled: `filter`'s
    /// relay subscribed to this map, as without the fusion, so that each subscribe is seen.
    ///
    /// Out of line, and not inlinable, on purpose: written in `_subscribeFiltering` itself,
    /// this branch inlined the whole subscribe path of the map's upstream a second time, so
    /// each `map` → `filter` pair doubled the code of the function that subscribed the
    /// pipeline; from about four pairs on, Swift 6.3.1's optimiser failed an internal assertion
    /// on it ("too many/large bit fields allocated in function", in `Mem2Reg`).
    ///
    /// - Parameters:
    ///   - subscriber: What `filter`'s publisher was subscribed with.
    ///   - isIncluded: The filter's test.
    @usableFromInline
    @inline(never)
    internal func subscribeFilteringWatched<S: Subscriber>(
      _ subscriber: consuming S, isIncluded: @escaping (Output) -> Bool
    ) where S.Input == Output, S.Failure == Failure {
      self._subscribeUpstream(FilterSubscriber(downstream: subscriber, isIncluded: isIncluded))
    }

    /// ``_subscribeFiltering(_:isIncluded:)`` in code the compiler did not specialise: the
    /// upstream may take the pair into a relay of its own upstream's (see
    /// `Publisher._subscribeMapFiltering(_:transform:isIncluded:)`). Not inlinable, so that
    /// specialised code, where this branch folds away, never grows by it.
    @usableFromInline
    internal func subscribeFilteringNotSpecialised<S: Subscriber>(
      _ subscriber: consuming S, isIncluded: @escaping (Output) -> Bool
    ) where S.Input == Output, S.Failure == Failure {
      upstream._subscribeMapFiltering(subscriber, transform: transform, isIncluded: isIncluded)
    }

    /// Subscribes one relay for this map's closure and the `filter`, `map` and `filter`
    /// subscribed to it (see `MapFilterPairSubscriber`), or, while an `_Introspection` is
    /// enabled, the relays separately.
    ///
    /// - Parameters:
    ///   - subscriber: What the last `filter`'s publisher was subscribed with.
    ///   - isIncluded: The first filter's test.
    ///   - thenTransform: The second map's closure.
    ///   - thenIsIncluded: The last filter's test.
    @inlinable
    @inline(never)
    public func _subscribeFilteringMapFiltering<S: Subscriber>(
      _ subscriber: consuming S, isIncluded: @escaping (Output) -> Bool,
      then thenTransform: @escaping (Output) -> S.Input, isIncluded thenIsIncluded: @escaping (S.Input) -> Bool
    ) where S.Failure == Failure {
      if _slowPath(DebugHook.isActive) {
        _subscribeFiltering(
          MapFilterSubscriber(downstream: subscriber, transform: thenTransform, isIncluded: thenIsIncluded),
          isIncluded: isIncluded)
      } else {
        upstream._subscribeUpstream(
          MapFilterPairSubscriber(
            downstream: subscriber, transform: transform, isIncluded: isIncluded, thenTransform: thenTransform,
            thenIsIncluded: thenIsIncluded))
      }
    }
  }
}

extension Publisher {
  /// Transforms all elements from the upstream publisher with a provided closure.
  ///
  /// ```swift
  /// let numbers = [5, 4, 3, 2, 1, 0]
  /// let romanNumeralDict: [Int: String] = [1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"]
  /// cancellable = numbers.publisher
  ///   .map { romanNumeralDict[$0] ?? "(unknown)" }
  ///   .sink { print("\($0)", terminator: " ") }
  /// // Prints: "V IV III II I (unknown)"
  /// ```
  ///
  /// Back-pressure: passes demand through unchanged.
  ///
  /// - Parameter transform: A closure that takes one element as its parameter and returns
  ///   a new element.
  /// - Returns: A publisher that uses the provided closure to map elements from the
  ///   upstream publisher to new elements that it then publishes.
  @inlinable
  public consuming func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
    Publishers.Map(upstream: self, transform: transform)
  }
}

extension Publishers.Map {
  /// Fuses two maps into one: `map(f).map(g)` becomes `map { g(f($0)) }`.
  @inlinable
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
    let first = self.transform
    return Publishers.Map<Upstream, T>(upstream: upstream) { transform(first($0)) }
  }
}

/// The subscriber `Map` attaches upstream: transforms each value and forwards everything
/// else untouched. A value type, so a `map` stage costs no allocation.
///
/// Generic over its `Output` although `Downstream.Input` names it: code the compiler did not
/// specialise finds a generic parameter's metadata in the subscriber's own metadata, and an
/// associated type's only through a run-time call (`swift_getAssociatedTypeWitness`) on every
/// value it transforms.
@usableFromInline
@_eagerMove
internal struct MapSubscriber<Input, Output, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Output {
  @usableFromInline
  internal typealias Failure = Downstream.Failure

  @usableFromInline
  internal let downstream: Downstream

  @usableFromInline
  internal let transform: (Input) -> Output

  // Always inlined: where not specialised, a struct's initialiser looks its own type up to
  // place the fields, and the caller, which names the type too, then shares the look-up.
  @inlinable
  @inline(__always)
  internal init(downstream: Downstream, transform: @escaping (Input) -> Output) {
    self.downstream = downstream
    self.transform = transform
  }

  @inlinable
  internal var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  @inlinable
  internal func receive(subscription: Subscription) {
    downstream.receive(subscription: subscription)
  }

  /// Always inlined: a one-call value path (Benchmarks/README.md, "Long pipelines", point 7).
  @inlinable
  @inline(__always)
  internal func receive(_ input: Input) -> Subscribers.Demand {
    downstream.receive(transform(input))
  }

  /// Passes a run on, transformed (see `Subscriber._receiveRun(nextRunsNoUserCode:_:)`).
  @inlinable
  @inline(__always)
  internal func _receiveRun(nextRunsNoUserCode: Bool, _ next: () -> Input??) {
    downstream._receiveRun(nextRunsNoUserCode: false) { runStep(next) { transform($0) } }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }

  @usableFromInline
  internal var description: String { "Map" }

  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
