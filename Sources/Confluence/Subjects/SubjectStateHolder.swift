/// Holds ``SubjectStorage``'s state machine: a class generic over the state's type itself,
/// for the reason ``FlatMapStateHolder`` gives. The storage's `deinit`, which Swift never
/// specialises, destroys the state; as a property of this class the state's metadata is read
/// from the object's class metadata, where a property of type `SubjectState<Output, Failure>`
/// had it looked up in the runtime's cache (about 400 instructions) every time a subject
/// went away: a third of what creating a subject, subscribing once and cancelling cost.
@usableFromInline
internal class SubjectStateHolder<State> {
  /// Guarded by the storage's lock (which is why runtime exclusivity checks are off for it).
  @exclusivity(unchecked)
  @usableFromInline
  internal final var state: State

  @inlinable
  internal init(state: State) {
    self.state = state
  }
}
