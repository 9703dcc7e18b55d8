/// A filtering stage's value path in code that is not specialised for the downstream's type
/// (a pipeline built by a generic function the compiler did not specialise, such as a helper
/// in another module): passes `value` on if `isIncluded` accepts it, and otherwise answers
/// `.max(1)`, as Apple's `filter` does for a value it drops.
///
/// There a copy of the downstream is a value-witness call with a retain and a release per
/// field, about as much as the rest of the stage, so the downstream is borrowed instead. (In
/// specialised code a borrow would load the next stage only after the predicate returned,
/// which `Benchmarks/README.md`, "Long pipelines", point 10 measured at three times the time;
/// the stages test `_isConcrete`, which the compiler decides, so each kind of code keeps one
/// branch.) Shared by ``FilterSubscriber`` and ``MapFilterSubscriber``.
@inlinable
@inline(__always)
internal func relayIfIncluded<Downstream: Subscriber>(
  _ next: borrowing Downstream, _ value: Downstream.Input, _ isIncluded: (Downstream.Input) -> Bool
) -> Subscribers.Demand {
  isIncluded(value) ? next.receive(value) : .max(1)
}
