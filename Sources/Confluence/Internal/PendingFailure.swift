/// A failure that waits in `flatMap`'s state machine for the thread that delivers: boxed,
/// and made only when one has to wait.
///
/// The state then holds a reference of fixed size where it held an optional whose size
/// depends on the downstream's failure type. Each field of a size that depends on the generic
/// parameters costs the subscription's `deinit`, which Swift never specialises, a look-up of
/// that field's metadata and a destroy through its value witnesses (see
/// ``SwitchToLatestBacklog``). `flatMap-chain-build-5`: 11,826 → 11,646 instructions.
/// (`zip` and `combineLatest` keep their optional: boxed there, it saved 11 instructions a
/// subscription, their queues being the fields that cost.)
@usableFromInline
internal final class PendingFailure<Failure: Error> {
  @usableFromInline internal let failure: Failure

  @inlinable
  internal init(_ failure: Failure) {
    self.failure = failure
  }
}
