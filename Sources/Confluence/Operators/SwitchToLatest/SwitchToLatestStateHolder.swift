/// Holds ``SwitchToLatestSubscription``'s state machine: a class generic over the state's
/// type itself, between the entry class (which must not name the downstream) and the
/// subscription, for the reason ``FlatMapStateHolder`` gives (the state's metadata comes
/// from the object's class metadata when the unspecialised `deinit` destroys it, not from
/// the runtime's cache, and the state lives in the object, not in an allocation of its own).
@usableFromInline
internal class SwitchToLatestStateHolder<P: Publisher, State>: SwitchToLatestEntry<P> {
  /// Guarded by the subscription's lock. `@exclusivity(unchecked)`: only accessed inside
  /// it, which already makes the accesses exclusive; the dynamic checks would cost two
  /// runtime calls per access.
  @exclusivity(unchecked)
  @usableFromInline
  internal final var state: State

  @inlinable
  internal init(
    state: State,
    receiveSubscription: @escaping SubscriptionHandler, receiveValue: @escaping ValueHandler,
    receiveCompletion: @escaping CompletionHandler
  ) {
    self.state = state
    super.init(
      receiveSubscription: receiveSubscription, receiveValue: receiveValue, receiveCompletion: receiveCompletion)
  }
}
