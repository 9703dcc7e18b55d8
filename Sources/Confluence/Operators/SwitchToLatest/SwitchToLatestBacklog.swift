/// What waits in ``SwitchToLatestState`` for the thread that delivers: values accepted while
/// another thread was delivering, and a completion that arrived meanwhile.
///
/// A class, made only when something has to wait, so that the state holds one reference
/// where it held a queue and an optional completion whose sizes depend on the downstream's
/// types. With every field's size fixed, the state is destroyed (in the subscription's
/// `deinit`, which Swift never specialises) by code that knows its layout, instead of code
/// that asks the runtime for the downstream's associated types and the fields' metadata:
/// about 190 instructions a subscription (`switchToLatest-chain-build-5`, five of them,
/// 12,656 → 11,693).
@usableFromInline
internal final class SwitchToLatestBacklog<Input, Failure: Error> {
  /// Values accepted (their demand used) while another thread was delivering, in arrival
  /// order.
  @usableFromInline internal var queued = FIFOQueue<Input>()

  /// The completion to send once the delivering thread is done.
  @usableFromInline internal var pendingCompletion: Subscribers.Completion<Failure>?

  @inlinable
  internal init() {}
}
