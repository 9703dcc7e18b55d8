/// Declares that a type can transmit a sequence of values over time.
///
/// A publisher delivers elements to one or more ``Subscriber`` instances. The subscriber's
/// `Input` and `Failure` associated types must match the publisher's `Output` and
/// `Failure`. Subscribing calls ``receive(subscriber:)``; the publisher then calls, in order:
///
/// - `receive(subscription:)` exactly once,
/// - `receive(_:)` zero or more times, never more often than the subscriber has requested,
/// - `receive(completion:)` at most once.
///
/// ```swift
/// let cancellable = [1, 2, 3].publisher
///   .map { $0 * 10 }
///   .sink { print($0) }   // 10, 20, 30
/// ```
///
/// Back-pressure: a publisher sends values only against demand that the subscriber
/// requested through its ``Subscription``.
public protocol Publisher<Output, Failure> {
  /// The kind of values published by this publisher.
  associatedtype Output

  /// The kind of errors this publisher might publish. Use `Never` if it does not fail.
  associatedtype Failure: Error

  /// Attaches the specified subscriber to this publisher.
  ///
  /// Implementations of ``Publisher`` must implement this method. Call
  /// ``subscribe(_:)->()`` instead, which is the public entry point.
  ///
  /// - Parameter subscriber: The subscriber to attach to this publisher, after which it
  ///   can receive values.
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure

  /// Confluence's fast path for a sink that ``sink(receiveCompletion:receiveValue:)`` has
  /// just made: not part of Combine's API, and not for use outside Confluence. The default
  /// subscribes the sink (`subscribe(_:)`); leave it to the default.
  ///
  /// Until this returns, nothing but this call holds `sink`: the closures it was given were
  /// written before it existed, and its `AnyCancellable` is made after. So no one can
  /// cancel it, send it anything or subscribe it anywhere else meanwhile. A publisher that
  /// sends everything it has on subscription (`Just`, `Optional.Publisher`,
  /// `Result.Publisher`, `Fail`, an `Empty` that completes at once, and `AnyPublisher`
  /// wrapping one of those) hands its value and completion to such a sink directly, with
  /// no subscription object, lock or atomic read-modify-write; as long as no
  /// `_Introspection` is enabled, nothing can tell the difference.
  ///
  /// - Parameter sink: A sink made by `sink(receiveCompletion:receiveValue:)` and shared
  ///   with no one yet.
  func _subscribeNewSink(_ sink: Subscribers.Sink<Output, Failure>)

  /// Confluence's fast path for `filter(isIncluded)` on this publisher: not part of
  /// Combine's API, and not for use outside Confluence. The default subscribes the relay
  /// `filter` subscribes (as `subscribe(_:)`); leave it to the default.
  ///
  /// `Publishers.Map` subscribes one relay to its own upstream that transforms, tests and
  /// passes on each value, where a `map` then a `filter` would subscribe two. Both relays
  /// pass their upstream's subscription and completion straight on, so as long as no
  /// `_Introspection` is enabled (which sees each subscribe), nothing can tell the
  /// difference; in generic code the compiler did not specialise, each value makes one call
  /// through a witness table instead of two.
  ///
  /// - Parameters:
  ///   - subscriber: What `filter`'s publisher was subscribed with.
  ///   - isIncluded: The filter's test.
  func _subscribeFiltering<S: Subscriber>(_ subscriber: consuming S, isIncluded: @escaping (Output) -> Bool)
  where S.Input == Output, S.Failure == Failure

  /// Confluence's fast path for `map(transform).filter(isIncluded)` on this publisher, in
  /// code the compiler did not specialise: not part of Combine's API, and not for use outside
  /// Confluence. The default subscribes the relay `map` then `filter` subscribe as one
  /// (`MapFilterSubscriber`, as `_subscribeRelay(_:)`); leave it to the default.
  ///
  /// `Publishers.Filter` hands the pair on to its own upstream's
  /// ``_subscribeFilteringMapFiltering(_:isIncluded:then:isIncluded:)`` with its own test,
  /// so that a `map` → `filter` → `map` → `filter` run of stages subscribes one relay where it
  /// would subscribe two (see `MapFilterPairSubscriber`).
  ///
  /// - Parameters:
  ///   - subscriber: What `filter`'s publisher was subscribed with.
  ///   - transform: The map's closure.
  ///   - isIncluded: The filter's test.
  func _subscribeMapFiltering<S: Subscriber>(
    _ subscriber: consuming S, transform: @escaping (Output) -> S.Input, isIncluded: @escaping (S.Input) -> Bool
  ) where S.Failure == Failure

  /// Confluence's fast path for `filter(isIncluded).map(transform).filter(thenIsIncluded)`
  /// on this publisher, in code the compiler did not specialise: not part of Combine's API,
  /// and not for use outside Confluence. The default subscribes `filter`'s relay
  /// (``_subscribeFiltering(_:isIncluded:)``) with the `map` → `filter` relay as its
  /// downstream; leave it to the default. `Publishers.Map` subscribes one relay for its own
  /// closure and the three after it (see `MapFilterPairSubscriber`).
  ///
  /// - Parameters:
  ///   - subscriber: What the last `filter`'s publisher was subscribed with.
  ///   - isIncluded: The first filter's test.
  ///   - transform: The map's closure.
  ///   - thenIsIncluded: The last filter's test.
  func _subscribeFilteringMapFiltering<S: Subscriber>(
    _ subscriber: consuming S, isIncluded: @escaping (Output) -> Bool, then transform: @escaping (Output) -> S.Input,
    isIncluded thenIsIncluded: @escaping (S.Input) -> Bool
  ) where S.Failure == Failure

  /// Confluence's fast path for a subscriber that an operator has just made and hands over
  /// (`map`'s relay, `reduce`'s subscription, …): not part of Combine's API, and not for use
  /// outside Confluence. Operators call `_subscribeRelay(_:)`, which reports the subscribe
  /// while an `_Introspection` is enabled and calls this otherwise, as `subscribe(_:)` calls
  /// ``receive(subscriber:)``. The default is ``receive(subscriber:)``; leave it to the
  /// default.
  ///
  /// ``receive(subscriber:)`` borrows its subscriber, so a publisher that keeps it copies it
  /// (a retain of every reference in it) while the operator that made it destroys its own
  /// (a release of each) once the call returns: two atomic operations per reference for each
  /// stage of a pipeline built. A publisher that implements this moves `relay` into the
  /// subscription it makes instead. Nothing else changes: the same subscriber is subscribed,
  /// with the same calls in the same order.
  ///
  /// `map`, `filter`, `compactMap`, `setFailureType` and `mapError` move the relay they are
  /// handed into the one they make and hand that on the same way. A subscription that keeps
  /// its subscriber until it is destroyed may keep it moved from the start (`switchToLatest`'s,
  /// `zip`'s and `combineLatest`'s): one that lets it go on cancel would free it while it
  /// runs `receive(subscription:)` and cancels from there, where the caller's copy kept it
  /// alive. `flatMap`'s lets it go on cancel, so it is handed the relay only once
  /// `receive(subscription:)` has returned. `flatMap` and `switchToLatest` hand their own
  /// subscription upstream moved in turn. `PassthroughSubject` and `CurrentValueSubject`
  /// (also erased) move a relay into their subscription, which keeps it until
  /// `receive(subscription:)` returns even when it is cancelled meanwhile.
  ///
  /// - Parameter relay: A subscriber the caller made for this call and keeps no copy of.
  func _receiveRelay<S: Subscriber>(_ relay: consuming S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
  /// Subscribes `sink` as any subscriber (`subscribe(_:)`).
  ///
  /// - Parameter sink: A sink made by `sink(receiveCompletion:receiveValue:)`.
  @inlinable
  @inline(__always)
  public func _subscribeNewSink(_ sink: Subscribers.Sink<Output, Failure>) {
    subscribe(sink)
  }

  /// Subscribes `filter`'s relay (`subscribe(_:)`).
  ///
  /// - Parameters:
  ///   - subscriber: What `filter`'s publisher was subscribed with.
  ///   - isIncluded: The filter's test.
  @inlinable
  @inline(__always)
  public func _subscribeFiltering<S: Subscriber>(_ subscriber: consuming S, isIncluded: @escaping (Output) -> Bool)
  where S.Input == Output, S.Failure == Failure {
    self._subscribeUpstream(FilterSubscriber(downstream: subscriber, isIncluded: isIncluded))
  }

  /// Subscribes the relay `map(transform).filter(isIncluded)` subscribes
  /// (`_subscribeRelay(_:)`).
  ///
  /// - Parameters:
  ///   - subscriber: What `filter`'s publisher was subscribed with.
  ///   - transform: The map's closure.
  ///   - isIncluded: The filter's test.
  @inlinable
  @inline(never)
  public func _subscribeMapFiltering<S: Subscriber>(
    _ subscriber: consuming S, transform: @escaping (Output) -> S.Input, isIncluded: @escaping (S.Input) -> Bool
  ) where S.Failure == Failure {
    self._subscribeUpstream(MapFilterSubscriber(downstream: subscriber, transform: transform, isIncluded: isIncluded))
  }

  /// Subscribes `filter`'s relay (``_subscribeFiltering(_:isIncluded:)``) with the relay
  /// `map(transform).filter(thenIsIncluded)` subscribes as its downstream.
  ///
  /// - Parameters:
  ///   - subscriber: What the last `filter`'s publisher was subscribed with.
  ///   - isIncluded: The first filter's test.
  ///   - transform: The map's closure.
  ///   - thenIsIncluded: The last filter's test.
  @inlinable
  @inline(never)
  public func _subscribeFilteringMapFiltering<S: Subscriber>(
    _ subscriber: consuming S, isIncluded: @escaping (Output) -> Bool, then transform: @escaping (Output) -> S.Input,
    isIncluded thenIsIncluded: @escaping (S.Input) -> Bool
  ) where S.Failure == Failure {
    _subscribeFiltering(
      MapFilterSubscriber(downstream: subscriber, transform: transform, isIncluded: thenIsIncluded),
      isIncluded: isIncluded)
  }

  /// Subscribes `relay` (``receive(subscriber:)``).
  ///
  /// - Parameter relay: A subscriber the caller made for this call and keeps no copy of.
  @inlinable
  @inline(__always)
  public func _receiveRelay<S: Subscriber>(_ relay: consuming S) where S.Input == Output, S.Failure == Failure {
    receive(subscriber: relay)
  }

  /// Attaches `relay`, a subscriber an operator has just made, handing it over moved where
  /// this publisher takes it so (``_receiveRelay(_:)``): what operators call instead of
  /// `subscribe(_:)`, and, like it, what debugging tools see.
  ///
  /// Takes this publisher `consuming`, on purpose: each stage of a pipeline calls this on its
  /// upstream, and the whole subscribe path is inlined into the function that subscribes
  /// the pipeline, so that it is specialised there. Borrowed, each stage's upstream was
  /// borrowed inside its downstream's borrow, one scope deeper per stage, and Swift 6.3.1's
  /// optimiser, which recurses once per nested scope, failed an internal assertion ("too
  /// many/large bit fields allocated in function", in `Mem2Reg`) on pipelines of five to ten
  /// stages. Taken owned, each stage's upstream is a value of its own and nothing nests; the
  /// optimiser then removes the copy (no build row of the benchmarks costs more). Where the
  /// code is not specialised (an app's debug build, a generic helper), the copy would be
  /// made, each stage copying its upstream and everything above it through value witnesses
  /// (10% more to build a 12-stage pipeline in a debug build, 20% at 24 stages), so stages
  /// call ``_subscribeUpstream(_:)``, which comes here only where the code is specialised.
  ///
  /// - Parameter relay: A subscriber the caller made for this call and keeps no copy of.
  @inlinable
  @inline(__always)
  public consuming func _subscribeRelay<S: Subscriber>(_ relay: consuming S)
  where S.Input == Output, S.Failure == Failure {
    if _slowPath(DebugHook.isActive) {
      _subscribeWatched(relay)
    } else {
      _receiveRelay(relay)
    }
  }

  /// What a stage calls to hand its relay to its upstream: ``_subscribeRelay(_:)`` on a copy
  /// of this publisher where the compiler specialised the code, and the same body on this
  /// publisher borrowed where it did not.
  ///
  /// Specialised, the copy is a value of its own, so the borrows of a deep pipeline do not
  /// nest (see ``_subscribeRelay(_:)``), and the optimiser removes it. Unspecialised (an
  /// app's debug build, a generic helper), the copy would go through value witnesses, each
  /// stage copying its upstream and everything above it. `_isConcrete(Self.self)` picks
  /// the path and folds away once specialised.
  ///
  /// - Parameter relay: A subscriber the caller made for this call and keeps no copy of.
  @inlinable
  @inline(__always)
  public func _subscribeUpstream<S: Subscriber>(_ relay: consuming S)
  where S.Input == Output, S.Failure == Failure {
    if _isConcrete(Self.self) {
      let owned = self
      owned._subscribeRelay(relay)
    } else if _slowPath(DebugHook.isActive) {
      _subscribeWatched(relay)
    } else {
      _receiveRelay(relay)
    }
  }

  /// `subscribe(_:)` while an `_Introspection` is enabled (`DebugHook.subscribe(_:_:)`).
  ///
  /// Out of line, and not inlinable, on purpose: with the call to `DebugHook` written in
  /// `subscribe(_:)` itself, Swift 6.3.1's optimiser failed an internal assertion ("too
  /// many/large bit fields allocated in function", in `Mem2Reg`) on a function that
  /// subscribed a subscriber class of its own to two `map` → `filter` pairs.
  ///
  /// - Parameter subscriber: What is being subscribed.
  @usableFromInline
  @inline(never)
  internal func _subscribeWatched<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
    DebugHook.subscribe(self, subscriber)
  }
}

extension Publisher {
  /// Attaches the specified subscriber to this publisher.
  ///
  /// Always call this function instead of ``Publisher/receive(subscriber:)``: it is what
  /// debugging tools see (see `_Introspection`); while one is enabled, the subscribe is
  /// reported and the subscriber watched.
  ///
  /// - Parameter subscriber: The subscriber to attach to this publisher. After attaching,
  ///   the subscriber can start to receive values.
  @inlinable
  @inline(__always)
  public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
    if _slowPath(DebugHook.isActive) {
      _subscribeWatched(subscriber)
    } else {
      receive(subscriber: subscriber)
    }
  }
}
