/// Holds ``FlatMapSubscription``'s state machine: a class generic over the state's type
/// itself, between the entry classes (which must not name the downstream) and the
/// subscription.
///
/// A generic class's `deinit`, which Swift never specialises, destroys each stored property
/// with its type's metadata. For a property of a generic type built from the class's
/// parameters (`FlatMapState<Upstream.Output, NewPublisher, Downstream>`) that metadata is
/// looked up in the runtime's cache on every destruction: about 400 instructions per
/// `flatMap` or merge subscription. Here the state's type is a parameter of this class, so
/// the `deinit` reads its metadata from the object's own class metadata, where it was put
/// once, when the subscription's type was first instantiated. The subscription sees the
/// property as its concrete type: no conversion anywhere.
///
/// A subscription that inherits from a holder builds its mirror with
/// `ancestorRepresentation: .suppressed`: a generated ancestor would show the whole state in
/// `dump`, which Apple's subscriptions do not (`SubscriptionMirrorAncestryTests`).
@usableFromInline
internal class FlatMapStateHolder<UpstreamOutput, InnerOutput, UpstreamFailure: Error, State: FlatMapStateMaking>:
  FlatMapEntry<UpstreamOutput, InnerOutput, UpstreamFailure>
{
  /// Guarded by the subscription's lock. `@exclusivity(unchecked)`: only accessed inside
  /// it, which already makes the accesses exclusive; the dynamic checks would cost two
  /// runtime calls per access, several times per inner publisher.
  @exclusivity(unchecked)
  @usableFromInline
  internal final var state: State

  @inlinable
  internal init(
    state: State, receiveValue: @escaping ValueHandler, innerValue: @escaping InnerValueHandler,
    receiveSubscription: @escaping SubscriptionHandler, event: @escaping EventHandler
  ) {
    self.state = state
    super.init(
      receiveValue: receiveValue, innerValue: innerValue, receiveSubscription: receiveSubscription, event: event)
  }

  /// A holder whose state has no downstream yet (``FlatMapStateMaking/init(transform:)``):
  /// `flatMap`'s, which is handed no `Downstream?` to keep (making an empty one, and moving
  /// it into the state, looked `Optional<Downstream>` up twice where the code is not
  /// specialised).
  ///
  /// Not marked for inlining: where the code is not specialised the optimiser leaves it a
  /// call, which finds `State` in the object's class metadata. Always inlined into the
  /// subscription's initialiser there (tried), it made the state in code that names the
  /// state's type, which looked that type up for every subscription.
  @inlinable
  internal init(
    transform: @escaping (State.Input) -> State.NewPublisher, receiveValue: @escaping ValueHandler,
    innerValue: @escaping InnerValueHandler, receiveSubscription: @escaping SubscriptionHandler,
    event: @escaping EventHandler
  ) {
    self.state = State(transform: transform)
    super.init(
      receiveValue: receiveValue, innerValue: innerValue, receiveSubscription: receiveSubscription, event: event)
  }
}

/// How ``FlatMapStateHolder`` makes `flatMap`'s state. Only `FlatMapState` conforms.
@usableFromInline
internal protocol FlatMapStateMaking {
  /// The upstream's elements.
  associatedtype Input

  /// The inner publishers' type.
  associatedtype NewPublisher

  /// A state with no downstream yet, whose inner publishers `transform` makes.
  init(transform: @escaping (Input) -> NewPublisher)
}
