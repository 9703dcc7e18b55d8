/// What distinguishes `zip` from `combineLatest`, and two upstreams from three or four: how
/// the upstreams' values are kept, when an output is ready, and when no further output is
/// possible. ``FanInState`` and ``FanInSubscription`` do the rest (demand, delivery,
/// completion, cancellation) the same way for every logic.
///
/// A three- or four-upstream operator is one subscription with one logic, not a nest of
/// two-upstream ones: building and dropping `zip(b, c, d)` made three subscriptions, each
/// with its lock, its handshake with two upstreams and its teardown, and the nested forms
/// cost two to three times what one subscription over four upstreams costs (issue 35,
/// `Benchmarks/RESULTS.md`).
@usableFromInline
internal protocol FanInLogic {
  associatedtype A
  associatedtype B
  /// The third upstream's values; `Never` for two upstreams.
  associatedtype C = Never
  /// The fourth upstream's values; `Never` for two or three upstreams.
  associatedtype D = Never
  /// What goes downstream: a tuple of one value per upstream.
  associatedtype Output

  init()

  /// What `print` shows for the subscription.
  static var name: String { get }

  /// The upstreams there are.
  static var sides: FanInSides { get }

  /// Whether a ready output is delivered once beyond downstream's demand (Apple's `zip`,
  /// whose demand count may go one below zero: with upstreams that send more than they
  /// were asked for, one extra tuple goes downstream, the next waits for demand).
  static var deliversOneBeyondDemand: Bool { get }

  /// A value arrived. `whileDelivering`: another delivery is in progress (on another
  /// thread, or further up this one's stack), and the value is seen after it returns, in
  /// arrival order, as if it had waited for it.
  mutating func receive(a: A, whileDelivering: Bool)
  mutating func receive(b: B, whileDelivering: Bool)
  mutating func receive(c: C, whileDelivering: Bool)
  mutating func receive(d: D, whileDelivering: Bool)

  /// Downstream has no demand left: what is kept for it is reduced to what Apple's operator
  /// keeps without demand.
  mutating func keepForLaterDemand()

  /// Whether outputs wait behind the newest one that ``keepForLaterDemand()`` would drop
  /// (the owner must then look at the state before letting go of delivery). `mutating`, as
  /// ``isDone(finished:)``: see ``hasOutput()``.
  var hasOutputsBehindNewest: Bool { mutating get }

  /// The next output, which ``hasOutput()`` said is ready; taking it consumes it. (Not an
  /// `Output?` returned when one is ready: unspecialised code looked that optional's metadata
  /// up in the runtime's cache twice per value.)
  mutating func takeReadyOutput() -> Output

  /// ``takeReadyOutput()`` for code the compiler did not specialise: writes the output to
  /// `output` (uninitialised memory for an `Output`) element by element, at the offsets
  /// ``TupleWriter`` gives. Returned as a tuple there, the output cost a search of the
  /// runtime's cache for the tuple type's metadata on every value.
  mutating func takeReadyOutput(into output: UnsafeMutableRawPointer)

  /// Whether an output is ready for ``takeReadyOutput()``. (`mutating` only so that the state
  /// reaches it in place rather than through a copy of the logic: an unoptimised build copied the
  /// logic through its value witness for each non-mutating call.)
  mutating func hasOutput() -> Bool

  /// Whether no further output can come, given which upstreams have finished. `mutating`:
  /// see ``hasOutput()``.
  mutating func isDone(finished: FanInSides) -> Bool

  /// Whether the operator still holds values (reported by the mirror).
  var heldValueCount: Int { get }

  /// Drops every value held, in place. (Assigning a fresh `Self()` destroyed the old value
  /// through the runtime's value witnesses, with a metadata walk per field.)
  mutating func removeAll()
}

extension FanInLogic where C == Never {
  /// No third upstream: never called.
  @inlinable
  internal mutating func receive(c: Never, whileDelivering: Bool) {}
}

extension FanInLogic where D == Never {
  /// No fourth upstream: never called.
  @inlinable
  internal mutating func receive(d: Never, whileDelivering: Bool) {}
}
