/// Holds ``SubjectStorage``'s state machine: a class generic over the state's type itself,
/// for the reason ``FlatMapStateHolder`` gives. The storage's `deinit`, which Swift never
/// specialises, destroys the state; as a property of this class the state's metadata is read
/// from the object's class metadata, where a property of type `SubjectState<Output, Failure>`
/// had it looked up in the runtime's cache (about 400 instructions) every time a subject
/// went away: a third of what creating a subject, subscribing once and cancelling cost.
///
/// The state's one per-send transition that unspecialised code reaches through the holder
/// (``SubjectStateSending``) is called from here for the same reason: the state's metadata
/// and its conformance come from the object's class, where calling the state's method from
/// the storage looked the state's metadata up, and reading its fields there also the
/// metadata of the optional and the completion inside it.
@usableFromInline
internal class SubjectStateHolder<State: SubjectStateSending> {
  /// Guarded by the storage's lock (which is why runtime exclusivity checks are off for it).
  @exclusivity(unchecked)
  @usableFromInline
  internal final var state: State

  /// A holder of a subject's state that keeps no current value (``SubjectStateSending/init()``).
  ///
  /// The state is made in place, through the conformance, rather than made by the caller
  /// and handed over: where the storage's initialiser is not specialised (an app's debug
  /// build), making it there looked its type up in the runtime's cache (about 330
  /// instructions) for every subject made; here the type is this class's own parameter.
  @inlinable
  internal init() {
    self.state = State()
  }

  /// A holder of a subject's state that keeps `currentValue` (as ``init()``).
  @inlinable
  internal init(currentValue: State.Head.Output) {
    self.state = State(currentValue: currentValue)
  }
}

extension SubjectStateHolder {
  /// Inside the critical section `acquired`: if the subject has not completed and has two
  /// or more subscribers, hands `value` to the first of them to plan and deliver
  /// (``SubjectSendingHead/sendAsHead(_:releasing:)``, which releases the lock) and returns
  /// `true`; otherwise returns `false`, the lock still held. For unspecialised code (see the
  /// type's discussion).
  @inlinable
  internal final func sendThroughHead(_ value: State.Head.Output, releasing acquired: Lock.Hold) -> Bool {
    guard let head = state.headOfSeveral() else { return false }
    head.sendAsHead(value, releasing: acquired)
    return true
  }
}

/// What ``SubjectStateHolder`` asks its state for in unspecialised code: to be made, and
/// for a send. Only `SubjectState` conforms.
@usableFromInline
internal protocol SubjectStateSending {
  /// The subscribers' conduit type.
  associatedtype Head: SubjectSendingHead

  /// The state of a subject that keeps no current value.
  init()

  /// The state of a subject that keeps `currentValue`.
  init(currentValue: Head.Output)

  /// The first of two or more subscribers of a subject that has not completed, else `nil`.
  /// Mutating only so that it is called on the state in place: called as a non-mutating
  /// method through the protocol, the state was copied first (through its value witnesses).
  mutating func headOfSeveral() -> Head?
}

/// A subject's conduit as ``SubjectStateHolder`` calls it for a send in unspecialised code.
/// Only `SubjectConduit` conforms.
@usableFromInline
internal protocol SubjectSendingHead: AnyObject {
  associatedtype Output

  /// `SubjectConduit.sendAsHead(_:releasing:)`.
  func sendAsHead(_ value: Output, releasing acquired: Lock.Hold)
}
