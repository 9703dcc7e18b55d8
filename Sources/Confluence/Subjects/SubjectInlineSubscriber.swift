/// A subscriber that is one class reference and a one-byte tag, which a subject's conduit
/// keeps as those two parts instead of boxing it (see ``SubjectDownstreamForm/inline``).
///
/// A conduit is not generic over its subscriber, so a subscriber that is not a class costs a
/// ``SubjectDownstreamBox``: one allocation, and its release and deallocation, per
/// subscription. The fan-in operators subscribe a structure per upstream (its parent and
/// which side it is), so a `zip` of four erased subjects paid four boxes. A conforming
/// subscriber is called through static functions given its parts (the reference borrowed
/// from the conduit), in code specialised for it: no box, and nothing retained per value.
///
/// Conformers are exactly their two parts, laid out as a reference followed by one byte
/// (``SubjectDownstreamForm/of(_:)`` looks for that shape before it asks whether a type
/// conforms: asking the runtime about every other subscriber type would cost each
/// subscription a conformance look-up), and the static functions behave as the
/// subscriber's own `receive(_:)` and `receive(completion:)`. The reference is a
/// ``SubjectDownstreamReflecting``, which rebuilds the subscriber for the conduit's mirror.
@usableFromInline
internal protocol SubjectInlineSubscriber: Subscriber {
  /// The one reference the subscriber holds.
  var subjectReference: AnyObject { get }

  /// Everything else the subscriber holds.
  var subjectTag: UInt8 { get }

  /// What `receive(_:)` does on the subscriber made of `reference` (borrowed) and `tag`,
  /// with the `Input` that `value` points to (borrowed).
  static func subjectReceive(_ reference: AnyObject, tag: UInt8, value: UnsafeRawPointer) -> Subscribers.Demand

  /// What `receive(completion:)` does on the subscriber made of `reference` (borrowed) and
  /// `tag`, with the `Subscribers.Completion<Failure>` that `completion` points to
  /// (borrowed).
  static func subjectReceive(_ reference: AnyObject, tag: UInt8, completion: UnsafeRawPointer)

  /// What `receive(subscription:)` does on the subscriber made of `reference` (borrowed)
  /// and `tag`.
  static func subjectReceive(_ reference: AnyObject, tag: UInt8, subscription: Subscription)
}

extension SubjectInlineSubscriber {
  /// What a conduit keeps of `subscriber` (a `Self`, as the conduit's generic parameter)
  /// and the functions that call it: formed here, where `Self` is known, so that they run
  /// specialised code. They capture nothing.
  @inlinable
  internal static func subjectParts<Downstream: Subscriber>(
    of subscriber: Downstream
  ) -> (
    reference: AnyObject, tag: UInt8, value: SubjectConduitValueHandler, completion: SubjectConduitCompletionHandler
  ) {
    let me = _identityCast(subscriber, to: Self.self)
    return (
      me.subjectReference, me.subjectTag,
      { held, tag, value in Self.subjectReceive(held, tag: tag, value: value) },
      { held, tag, completion in Self.subjectReceive(held, tag: tag, completion: completion) }
    )
  }
}
