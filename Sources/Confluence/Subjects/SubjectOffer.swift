/// What became of a value offered to one of a subject's subscribers (`SubjectConduit.offer`
/// and `SubjectConduit.claimReserved`, under the subject's lock).
@usableFromInline
internal enum SubjectOffer {
  /// This thread now owns delivery to the subscriber and must deliver the value.
  case owned
  /// Nothing more to do: queued behind this thread's own delivery (a re-entrant send), or
  /// dropped (no demand, cancelled, completing).
  case declined
  /// Accepted while another thread owns delivery to the subscriber: demand is reserved for
  /// the value; wait for the owner to give ownership up and claim it
  /// (`SubjectStorage.deliverAfterWaiting`).
  case busy
}
