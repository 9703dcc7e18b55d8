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
internal class FlatMapStateHolder<UpstreamOutput, InnerOutput, UpstreamFailure: Error, State>:
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
}
