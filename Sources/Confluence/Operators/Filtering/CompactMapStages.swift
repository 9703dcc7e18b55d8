/// The closures a fused `compactMap` was built from (`compactMap { … }.map { … }` and
/// `compactMap { … }.compactMap { … }` give one `CompactMap`, as Apple's do), kept one by one
/// for code the compiler did not specialise.
///
/// A fused `CompactMap` publishes through one closure composed from the others. Specialised,
/// that closure is inlined into its relay and costs what the closures themselves cost. Not
/// specialised (a pipeline built by a generic helper the compiler did not specialise), each
/// composed level is a call with its result passed indirectly, an optional of a generic type
/// taken apart through value witnesses: about 200 instructions a level, so six fused
/// `compactMap`s cost more per value than twelve relays. There, the fused `CompactMap`
/// subscribes a relay per closure instead — ``CompactMapRelay`` for a `compactMap`'s,
/// `MapSubscriber` for a `map`'s — nested as separate `CompactMap` and `Map` stages would be.
/// What the downstream sees is the same: each value goes through the closures in order and
/// is published unless one returns `nil`, which is answered with `.max(1)`; the upstream's
/// subscription and completion pass straight on, and the upstream sees one subscriber shown
/// as "CompactMap".
///
/// This class is one stage: ``transform`` is every stage up to here composed, and
/// ``subscribe(_:_:)`` subscribes one relay running it. Its subclasses are a stage after
/// ``CompactMapThenCompactMap/previous`` ones and subscribe a relay per stage.
@usableFromInline
internal class CompactMapStages<Input, Output> {
  /// This stage and every one before it, composed.
  @usableFromInline
  internal let transform: (Input) -> Output?

  @usableFromInline
  internal init(_ transform: @escaping (Input) -> Output?) {
    self.transform = transform
  }

  /// Subscribes `relay` to `upstream` through these stages (here, one relay running
  /// ``transform``).
  @usableFromInline
  internal func subscribe<Upstream: Publisher, Downstream: Subscriber>(
    _ upstream: Upstream, _ relay: consuming Downstream
  ) where Upstream.Output == Input, Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
    upstream._subscribeUpstream(CompactMapRelay<Input, Output?, Downstream>(downstream: relay, transform: transform))
  }

  /// These stages, then a `compactMap` stage running `last`; `fused` is every closure
  /// composed.
  @usableFromInline
  internal func then<Next>(
    compactMap last: @escaping (Output) -> Next?, fused: @escaping (Input) -> Next?
  ) -> CompactMapStages<Input, Next> {
    CompactMapThenCompactMap(previous: self, last: last, fused: fused)
  }

  /// These stages, then a `map` stage running `last`; `fused` is every closure composed.
  @usableFromInline
  internal func then<Next>(
    map last: @escaping (Output) -> Next, fused: @escaping (Input) -> Next?
  ) -> CompactMapStages<Input, Next> {
    CompactMapThenMap(previous: self, last: last, fused: fused)
  }
}

/// A `compactMap` stage after others (see ``CompactMapStages``).
@usableFromInline
internal final class CompactMapThenCompactMap<Input, Middle, Output>: CompactMapStages<Input, Output> {
  /// The stages before this one.
  @usableFromInline
  internal let previous: CompactMapStages<Input, Middle>

  /// This stage's own closure.
  @usableFromInline
  internal let last: (Middle) -> Output?

  @usableFromInline
  internal init(
    previous: CompactMapStages<Input, Middle>, last: @escaping (Middle) -> Output?,
    fused: @escaping (Input) -> Output?
  ) {
    self.previous = previous
    self.last = last
    super.init(fused)
  }

  /// Subscribes this stage's relay, with `relay` as its downstream, through the stages
  /// before it.
  @usableFromInline
  override internal func subscribe<Upstream: Publisher, Downstream: Subscriber>(
    _ upstream: Upstream, _ relay: consuming Downstream
  ) where Upstream.Output == Input, Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
    previous.subscribe(upstream, CompactMapRelay<Middle, Output?, Downstream>(downstream: relay, transform: last))
  }
}

/// A `map` stage after others (see ``CompactMapStages``).
@usableFromInline
internal final class CompactMapThenMap<Input, Middle, Output>: CompactMapStages<Input, Output> {
  /// The stages before this one.
  @usableFromInline
  internal let previous: CompactMapStages<Input, Middle>

  /// This stage's own closure.
  @usableFromInline
  internal let last: (Middle) -> Output

  @usableFromInline
  internal init(
    previous: CompactMapStages<Input, Middle>, last: @escaping (Middle) -> Output, fused: @escaping (Input) -> Output?
  ) {
    self.previous = previous
    self.last = last
    super.init(fused)
  }

  /// Subscribes this stage's relay, with `relay` as its downstream, through the stages
  /// before it.
  @usableFromInline
  override internal func subscribe<Upstream: Publisher, Downstream: Subscriber>(
    _ upstream: Upstream, _ relay: consuming Downstream
  ) where Upstream.Output == Input, Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
    previous.subscribe(upstream, MapSubscriber(downstream: relay, transform: last))
  }

  /// The stages before this one, then this `map` and the `compactMap` running `next` as one
  /// stage, with one relay (`compactMap { … }.map { … }.compactMap { … }` is what a pipeline
  /// alternating the two fuses into).
  @usableFromInline
  override internal func then<Next>(
    compactMap next: @escaping (Output) -> Next?, fused: @escaping (Input) -> Next?
  ) -> CompactMapStages<Input, Next> {
    CompactMapThenMapCompactMap(previous: previous, map: last, compactMap: next, fused: fused)
  }
}

/// A `map` stage and the `compactMap` stage after it, after others, run by one relay (see
/// ``CompactMapStages``).
@usableFromInline
internal final class CompactMapThenMapCompactMap<Input, Before, Middle, Output>: CompactMapStages<Input, Output> {
  /// The stages before this one.
  @usableFromInline
  internal let previous: CompactMapStages<Input, Before>

  /// The `map` stage's closure.
  @usableFromInline
  internal let map: (Before) -> Middle

  /// The `compactMap` stage's closure.
  @usableFromInline
  internal let compactMap: (Middle) -> Output?

  @usableFromInline
  internal init(
    previous: CompactMapStages<Input, Before>, map: @escaping (Before) -> Middle,
    compactMap: @escaping (Middle) -> Output?, fused: @escaping (Input) -> Output?
  ) {
    self.previous = previous
    self.map = map
    self.compactMap = compactMap
    super.init(fused)
  }

  /// Subscribes this stage's relay, with `relay` as its downstream, through the stages
  /// before it.
  @usableFromInline
  override internal func subscribe<Upstream: Publisher, Downstream: Subscriber>(
    _ upstream: Upstream, _ relay: consuming Downstream
  ) where Upstream.Output == Input, Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
    previous.subscribe(
      upstream,
      MapCompactMapRelay<Before, Middle, Output?, Downstream>(downstream: relay, map: map, compactMap: compactMap))
  }
}
