/// A `map` stage and the `compactMap` stage after it in a fused `CompactMap`, where the code
/// that subscribed it was not specialised (see ``CompactMapStages``): the two relays in one,
/// as ``MapFilterSubscriber`` is for `map` → `filter`.
///
/// Each value is transformed by `map`, then by `compactMap`, and published unless the result
/// is `nil`, which is answered with `.max(1)`; the upstream's subscription and completion pass
/// straight on. In code the compiler did not specialise, each relay is a call through a
/// witness table with its value passed indirectly, so the pair costs one such call instead of
/// two. Generic over the `compactMap` closure's result type (`Transformed`, an `Optional`) for
/// the reason ``CompactMapRelay`` is.
@usableFromInline
internal final class MapCompactMapRelay<Input, Middle, Transformed: OptionalValue, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Transformed.Wrapped {
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline
  internal let downstream: Downstream

  @usableFromInline
  internal let map: (Input) -> Middle

  @usableFromInline
  internal let compactMap: (Middle) -> Transformed

  @usableFromInline
  internal init(downstream: Downstream, map: @escaping (Input) -> Middle, compactMap: @escaping (Middle) -> Transformed)
  {
    self.downstream = downstream
    self.map = map
    self.compactMap = compactMap
  }

  @usableFromInline
  internal func receive(subscription: Subscription) {
    downstream.receive(subscription: subscription)
  }

  @usableFromInline
  internal func receive(_ input: Input) -> Subscribers.Demand {
    compactMap(map(input)).deliverWrapped(to: downstream) ?? .max(1)
  }

  /// Passes a run on: non-`nil` results go on in the run, `nil` ones are marked as dropped
  /// (see `Subscriber._receiveRun(nextRunsNoUserCode:_:)`).
  @usableFromInline
  internal func _receiveRun(nextRunsNoUserCode: Bool, _ next: () -> Input??) {
    downstream._receiveRun(nextRunsNoUserCode: false) {
      runStep(next) { input in .some(compactMap(map(input)).optional) }
    }
  }

  @usableFromInline
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
