/// What `map(transform).filter(isIncluded)` subscribes upstream when nothing watches the
/// subscriptions: the two relays in one (see `Publisher._subscribeFiltering(_:isIncluded:)`).
///
/// `Map` and `Filter` subscribe relays (``MapSubscriber``, ``FilterSubscriber``): each passes
/// the upstream's subscription and completion straight on, so a `map` followed by a `filter`
/// is seen from outside only through what reaches the downstream — each value transformed,
/// tested, and either passed on or answered with `.max(1)`. This relay does that in one call
/// per value instead of two. In code the compiler specialised the two calls were inlined
/// into one anyway; in generic code it did not specialise (a pipeline built by a generic
/// helper in another module) and in an unoptimised build, each relay is a call through a witness
/// table with its value passed indirectly, so a `map` → `filter` pair costs one such call
/// instead of two.
///
/// A class, as ``FilterSubscriber`` is: a chain of `map` → `filter` pairs nests each relay
/// in the next, and a chain of references stays one word wide where nested structs would
/// grow with every stage. `Output` is a parameter of its own, as ``MapSubscriber``'s is,
/// rather than `Downstream.Input`: unspecialised code finds a parameter's metadata in the
/// relay's own, but an associated type's only by asking the runtime, and the transformed
/// value is a temporary of that type on every call. Shown as "Map" with an empty mirror, as
/// the relay it replaces at the top is.
@usableFromInline
internal final class MapFilterSubscriber<Input, Output, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Output {
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline
  internal let downstream: Downstream

  @usableFromInline
  internal let transform: (Input) -> Output

  @usableFromInline
  internal let isIncluded: (Output) -> Bool

  @inlinable
  internal init(
    downstream: Downstream, transform: @escaping (Input) -> Output, isIncluded: @escaping (Output) -> Bool
  ) {
    self.downstream = downstream
    self.transform = transform
    self.isIncluded = isIncluded
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    downstream.receive(subscription: subscription)
  }

  @inlinable
  @inline(__always)
  internal func receive(_ input: Input) -> Subscribers.Demand {
    if _isConcrete(Downstream.self) {
      let next = downstream
      let output = transform(input)
      return isIncluded(output) ? next.receive(output) : .max(1)
    }
    return relayIfIncluded(downstream, transform(input), isIncluded)
  }

  @inlinable
  @inline(__always)
  internal func _receiveRun(nextRunsNoUserCode: Bool, _ next: () -> Input??) {
    downstream._receiveRun(nextRunsNoUserCode: false) {
      runStep(next) { input in
        let output = transform(input)
        return isIncluded(output) ? output : .some(nil)
      }
    }
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
