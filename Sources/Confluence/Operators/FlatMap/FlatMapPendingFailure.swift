/// A failure that waits in ``FlatMapState`` for the thread that delivers: boxed, and made
/// only when one has to wait, so that the state holds a reference of fixed size where it
/// held an optional whose size depends on the downstream's failure type (see
/// ``SwitchToLatestBacklog`` for what that costs the subscription's unspecialised `deinit`).
@usableFromInline
internal final class FlatMapPendingFailure<Failure: Error> {
  @usableFromInline internal let failure: Failure

  @inlinable
  internal init(_ failure: Failure) {
    self.failure = failure
  }
}
