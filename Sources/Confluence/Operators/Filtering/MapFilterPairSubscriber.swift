/// What `map(transform).filter(isIncluded).map(thenTransform).filter(thenIsIncluded)`
/// subscribes upstream where the code that subscribed it was not specialised: two
/// ``MapFilterSubscriber``s in one (see `Publisher._subscribeMapFiltering(_:transform:isIncluded:)`).
///
/// Each value is transformed and tested, then transformed and tested again, and passed on
/// if both tests pass; a value either test drops is answered with `.max(1)`, as each
/// `filter`'s relay answers it. The upstream's subscription and completion pass straight on.
/// In code the compiler specialised, the relays of a pipeline are inlined into one another
/// anyway, and this relay is not used. In code it did not specialise (a pipeline built by a
/// generic helper in another module, or an unoptimised build), each relay is a call through
/// a witness table with its value passed indirectly, so a pipeline of `map` → `filter` pairs
/// makes one such call for every two pairs.
///
/// `First` and `Output` are parameters of their own, as ``MapFilterSubscriber``'s `Output`
/// is: unspecialised code finds their metadata in the relay's own. Shown as "Map" with an
/// empty mirror, as the relay it replaces at the top is.
@usableFromInline
internal final class MapFilterPairSubscriber<Input, First, Output, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Output {
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline
  internal let downstream: Downstream

  @usableFromInline
  internal let transform: (Input) -> First

  @usableFromInline
  internal let isIncluded: (First) -> Bool

  @usableFromInline
  internal let thenTransform: (First) -> Output

  @usableFromInline
  internal let thenIsIncluded: (Output) -> Bool

  @inlinable
  internal init(
    downstream: Downstream, transform: @escaping (Input) -> First, isIncluded: @escaping (First) -> Bool,
    thenTransform: @escaping (First) -> Output, thenIsIncluded: @escaping (Output) -> Bool
  ) {
    self.downstream = downstream
    self.transform = transform
    self.isIncluded = isIncluded
    self.thenTransform = thenTransform
    self.thenIsIncluded = thenIsIncluded
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    downstream.receive(subscription: subscription)
  }

  // Always inlined, as `MapFilterSubscriber`'s: the witness the upstream calls is then this
  // body, not a call to it.
  @inlinable
  @inline(__always)
  internal func receive(_ input: Input) -> Subscribers.Demand {
    let first = transform(input)
    guard isIncluded(first) else { return .max(1) }
    return relayIfIncluded(downstream, thenTransform(first), thenIsIncluded)
  }

  @inlinable
  @inline(__always)
  internal func _receiveRun(nextRunsNoUserCode: Bool, _ next: () -> Input??) {
    downstream._receiveRun(nextRunsNoUserCode: false) {
      runStep(next) { input in
        let first = transform(input)
        guard isIncluded(first) else { return .some(nil) }
        let output = thenTransform(first)
        return thenIsIncluded(output) ? output : .some(nil)
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
