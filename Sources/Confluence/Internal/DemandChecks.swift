extension Subscribers.Demand {
  /// Traps if a subscriber requested `.none`, which Apple's Combine treats as API misuse.
  @inlinable
  @inline(__always)
  package func assertNonZero(_ caller: StaticString = #function) {
    confluencePrecondition(
      rawValue != 0, "API violation: \(caller) was called with demand .none; request at least .max(1)")
  }
}
