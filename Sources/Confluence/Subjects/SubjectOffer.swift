/// What became of a value offered to one of a subject's subscribers
/// (`SubjectConduit.offer(_:keepsCurrentValue:generation:)`, under the subject's lock).
@usableFromInline
internal enum SubjectOffer {
  /// This thread now owns delivery to the subscriber and must deliver the value.
  case owned
  /// Queued behind this thread's own delivery (a re-entrant send), or dropped (no demand,
  /// cancelled, completing, or older than what the subscriber took already).
  case declined
  /// Another thread owns delivery to the subscriber: nothing changed; wait for it to give
  /// ownership up and offer again (`SubjectStorage.deliverAfterWaiting`).
  case busy
}
