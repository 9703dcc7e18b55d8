/// Holds ``FanInSubscription``'s state machine: a class generic over the state's type
/// itself, between the entry classes (which must not name the downstream) and the
/// subscription, for the reason ``FlatMapStateHolder`` gives (the state's metadata comes
/// from the object's class metadata when the unspecialised `deinit` destroys it, not from
/// the runtime's cache, and the state lives in the object, not in an allocation of its own).
@usableFromInline
internal class FanInStateHolder<AOutput, BOutput, COutput, DOutput, Failure: Error, State: FanInStateMachine>:
  FanInEntry<AOutput, BOutput, COutput, DOutput, Failure>
{
  /// Guarded by the subscription's lock. `@exclusivity(unchecked)`: only accessed inside
  /// it, which already makes the accesses exclusive; the dynamic checks would cost two
  /// runtime calls per access, on every value.
  @exclusivity(unchecked)
  @usableFromInline
  internal final var state: State

  @inlinable
  internal init(
    state: State, receiveSubscription: @escaping SubscriptionHandler, receiveA: @escaping ValueHandler,
    receiveB: @escaping ValueHandler, receiveC: @escaping ValueHandler, receiveD: @escaping ValueHandler,
    event: @escaping EventHandler
  ) {
    self.state = state
    super.init(
      receiveSubscription: receiveSubscription, receiveA: receiveA, receiveB: receiveB, receiveC: receiveC,
      receiveD: receiveD, event: event)
  }

  /// `state.receive(from:_:)` for code the compiler did not specialise, where `State`'s
  /// metadata comes from this object's class (see ``FanInStateMachine``). Out of line, so
  /// that the caller's code does not name the state's type.
  @inlinable
  @inline(never)
  internal final func receiveThroughHolder(
    from side: FanInSide, _ keep: (inout State.Logic, _ whileDelivering: Bool) -> Void
  ) -> FanInStep {
    state.receive(from: side, keep)
  }

  /// `state.justArrived(_:_:)` for code the compiler did not specialise (as
  /// ``receiveThroughHolder(from:_:)``).
  @inlinable
  @inline(never)
  internal final func justArrivedThroughHolder(_ side: FanInSide, _ just: FanInJustSubscription) -> FanInJustArrival {
    state.justArrived(side, just)
  }

  /// `state.takeJust(from:bits:)` for code the compiler did not specialise (as
  /// ``receiveThroughHolder(from:_:)``).
  @inlinable
  @inline(never)
  internal final func takeJustThroughHolder(from side: FanInSide, bits: UInt64) -> FanInJustArrival {
    state.takeJust(from: side, bits: bits)
  }

  /// `state.subscribed(_:_:)` for code the compiler did not specialise (as
  /// ``receiveThroughHolder(from:_:)``).
  @inlinable
  @inline(never)
  internal final func subscribedThroughHolder(_ side: FanInSide, _ subscription: Subscription) -> Subscribers.Demand? {
    state.subscribed(side, subscription)
  }

  /// `state.cancel()` for code the compiler did not specialise (as
  /// ``receiveThroughHolder(from:_:)``).
  @inlinable
  @inline(never)
  internal final func cancelThroughHolder() -> FanInUpstreams {
    state.cancel()
  }

  /// `state.requestStep(_:)` for code the compiler did not specialise (as
  /// ``receiveThroughHolder(from:_:)``).
  @inlinable
  @inline(never)
  internal final func requestStepThroughHolder(_ more: Subscribers.Demand) -> (FanInUpstreams, FanInStep) {
    state.requestStep(more)
  }

  /// `state.takeReadyOutput(into:)` for code the compiler did not specialise (as
  /// ``receiveThroughHolder(from:_:)``).
  @inlinable
  @inline(never)
  internal final func takeReadyOutputThroughHolder(into output: UnsafeMutableRawPointer) {
    state.takeReadyOutput(into: output)
  }

  /// `state.canLetGoQuietly()` for code the compiler did not specialise (as
  /// ``receiveThroughHolder(from:_:)``).
  @inlinable
  @inline(never)
  internal final func canLetGoQuietlyThroughHolder() -> Bool {
    state.canLetGoQuietly()
  }
}
