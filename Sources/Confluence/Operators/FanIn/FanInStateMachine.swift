/// What a fan-in's value path asks of its state, as ``FanInStateHolder`` asks it in code the
/// compiler did not specialise: through this protocol, the state's generic metadata
/// comes from the holder's class metadata and reaches ``FanInState``'s code as its `Self`,
/// where naming `FanInState<Logic, Failure>` in the subscription looked it up in the
/// runtime's cache on every value (the state's `logic` sits at an offset that depends on
/// `Logic`'s alignment, which only that metadata records).
@usableFromInline
internal protocol FanInStateMachine {
  /// Decides when an output is ready.
  associatedtype Logic: FanInLogic

  /// A value arrived from `side`: ``FanInState/receive(from:_:)``.
  mutating func receive(from side: FanInSide, _ keep: (inout Logic, _ whileDelivering: Bool) -> Void) -> FanInStep

  /// A `Just` on `side` subscribed, with its value and completion if demand waits:
  /// ``FanInState/justArrived(_:_:)``.
  mutating func justArrived(_ side: FanInSide, _ just: FanInJustSubscription) -> FanInJustArrival

  /// A `Just` on `side` was asked for its value: ``FanInState/takeJust(from:bits:)``.
  mutating func takeJust(from side: FanInSide, bits: UInt64) -> FanInJustArrival

  /// `side`'s subscription arrived: ``FanInState/subscribed(_:_:)``.
  mutating func subscribed(_ side: FanInSide, _ subscription: Subscription) -> Subscribers.Demand?

  /// Downstream cancelled: ``FanInState/cancel()``.
  mutating func cancel() -> FanInUpstreams

  /// Downstream asked for more: ``FanInState/requestStep(_:)``.
  mutating func requestStep(_ more: Subscribers.Demand) -> (FanInUpstreams, FanInStep)

  /// The output a `deliver` step made ready, written to `output`:
  /// `FanInLogic.takeReadyOutput(into:)`. (Specialised code calls the state's
  /// `takeReadyOutput()` itself.)
  mutating func takeReadyOutput(into output: UnsafeMutableRawPointer)

  /// Whether the owner of delivery may let go without the lock:
  /// ``FanInState/canLetGoQuietly()``.
  mutating func canLetGoQuietly() -> Bool
}
