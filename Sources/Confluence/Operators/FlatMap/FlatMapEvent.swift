/// The rare events of a `flatMap` or merge subscription, which share one handler
/// (``FlatMapEntryRoot/event``), and what the handler's pointer points to and its
/// identifier carries for each.
@usableFromInline
@frozen
internal enum FlatMapEvent: UInt8 {
  /// Upstream completed: a `Subscribers.Completion<Failure>`, borrowed (identifier
  /// ``FlatMapInnerID/upstream``).
  case upstreamCompletion
  /// The inner publisher the handler's identifier names completed: a
  /// `Subscribers.Completion<Failure>`, borrowed.
  case innerCompletion
  /// Downstream asked for more: no pointer; the identifier carries the demand, non-zero
  /// (``FlatMapInnerID/carrying(_:)``), so that a request spills nothing to memory.
  case request
  /// Downstream cancelled: no pointer (identifier ``FlatMapInnerID/upstream``).
  case cancel
}
