/// The rare events of a fan-in subscription, which share one handler
/// (``FanInJustEntry/event``), and what the handler's pointer points to and its word
/// carries for each.
@usableFromInline
@frozen
internal enum FanInEvent: UInt8 {
  /// The side's upstream completed: a `Subscribers.Completion<Failure>`, borrowed.
  case completion
  /// The `Just` on the side was asked for values: no pointer; the word is its value's bytes
  /// (see ``FanInJustSubscription``).
  case just
  /// Downstream asked for more: no pointer; the word is the demand's raw value, non-zero.
  case request
  /// Downstream cancelled: no pointer, nothing carried.
  case cancel
}
