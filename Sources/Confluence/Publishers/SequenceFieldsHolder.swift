/// The fields of ``SequenceSubscription`` whose types are optionals of its generic
/// parameters, guarded by its lock.
@usableFromInline
@frozen
internal struct SequenceSubscriptionFields<Elements: Sequence, Downstream: Subscriber> {
  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var iterator: Elements.Iterator?
  @usableFromInline internal var nextElement: Elements.Element?
  @usableFromInline internal var sequence: Elements?

  @inlinable
  internal init(
    downstream: Downstream?, iterator: Elements.Iterator?, nextElement: Elements.Element?, sequence: Elements?
  ) {
    self.downstream = downstream
    self.iterator = iterator
    self.nextElement = nextElement
    self.sequence = sequence
  }
}

/// Holds ``SequenceSubscription``'s fields: a class generic over their type itself, for the
/// reason ``FlatMapStateHolder`` gives. Stored in the subscription as four optionals of its
/// generic parameters, each was destroyed by the `deinit` (which Swift never specialises)
/// after looking `Optional<…>`'s metadata up in the runtime's cache, about 560 instructions
/// a field; here the `deinit` reads the fields' type from the object's class metadata, and
/// they live in the object.
@usableFromInline
internal class SequenceFieldsHolder<Fields> {
  /// Guarded by the subscription's lock. `@exclusivity(unchecked)`: only accessed with it
  /// held (or in `init`), which already makes every access exclusive.
  @exclusivity(unchecked)
  @usableFromInline
  internal final var fields: Fields

  @inlinable
  internal init(fields: Fields) {
    self.fields = fields
  }
}
