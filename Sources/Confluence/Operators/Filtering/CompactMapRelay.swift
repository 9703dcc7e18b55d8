/// What `compactMap` subscribes upstream: a relay, as Apple's is. The upstream's
/// subscription goes straight to the downstream, every completion is passed on as it comes,
/// and each value is transformed and published unless the result is `nil`. No state of its
/// own, no lock. Shown as "CompactMap", with an empty mirror.
///
/// Generic over the transform's result type (`Transformed`, an `Optional`) and its
/// `Output`, both named: code the compiler did not specialise finds their metadata in this
/// class's own, where naming them as `Output?` or `Downstream.Input` would look them up at
/// run time on every value (see ``OptionalValue``).
@usableFromInline
internal final class CompactMapRelay<Input, Transformed: OptionalValue, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Transformed.Wrapped {
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline
  internal let downstream: Downstream

  @usableFromInline
  internal let transform: (Input) -> Transformed

  @inlinable
  internal init(downstream: Downstream, transform: @escaping (Input) -> Transformed) {
    self.downstream = downstream
    self.transform = transform
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    downstream.receive(subscription: subscription)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    // Read before the user's closure runs (Benchmarks/README.md, "Long pipelines",
    // point 10); borrowed in code not specialised for the downstream (see
    // `FilterSubscriber`).
    if _isConcrete(Downstream.self) {
      let next = downstream
      return transform(input).deliverWrapped(to: next) ?? .max(1)
    }
    return transform(input).deliverWrapped(to: downstream) ?? .max(1)
  }

  /// Passes a run on: non-`nil` results go on in the run, `nil` ones are marked as dropped
  /// (see `Subscriber._receiveRun(nextRunsNoUserCode:_:)`).
  @inlinable
  @inline(__always)
  internal func _receiveRun(nextRunsNoUserCode: Bool, _ next: () -> Input??) {
    downstream._receiveRun(nextRunsNoUserCode: false) {
      runStep(next) { input in .some(transform(input).optional) }
    }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }

  @usableFromInline
  internal var description: String { "CompactMap" }

  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
