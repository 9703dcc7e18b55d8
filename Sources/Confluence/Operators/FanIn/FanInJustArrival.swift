/// What a fan-in's state did with a `Just`'s value and completion, taken in one critical
/// section (``FanInState``'s `takeJust(from:bits:)`), answered without a `FanInState.Next`:
/// code the compiler did not specialise (every debug build's) looked that nested generic
/// enum up in the runtime's cache several times per `Just`, though it is nearly always
/// `idle` there. The caller forms the `Next` out of line, in the same section, only for a
/// step that is not `idle`.
@usableFromInline
@frozen
internal enum FanInJustArrival {
  /// Nothing to do: the whole has ended, the `Just` delivered already, or no demand waits
  /// yet (the `Just` is asked for its value later).
  case nothing
  /// The value was kept and the completion taken, and neither set anything off.
  case settled
  /// The value set `step` off (a delivery this thread now owns, or the end of everything);
  /// the completion was not taken and follows once `step` is carried out.
  case valueStep(FanInStep)
  /// The value was kept and the completion taken, which set `step` off.
  case completionStep(FanInStep)
}
