/// What a fan-in operator's upstreams see of it: ``FanInSubscription`` through a base class
/// generic over the value and failure types only (`C` and `D` are `Never` where there are
/// fewer upstreams).
///
/// The subscription's type names the downstream subscriber's type; if an upstream saw it,
/// every `zip` nested in another would hand its upstreams a subscriber type that contains
/// the next one's, and the optimizer, which refuses to specialise a generic function again
/// for a type that contains the one it was specialised for a step before, would leave all
/// but the last two levels unspecialised (every value would look generic metadata up at run
/// time). Through this class every level hands its upstreams the same small types, and each
/// value enters the subscription's specialised code through one indirect call.
///
/// It stores nothing: the handlers are ``FanInJustEntry``'s (see there why).
@usableFromInline
internal class FanInEntry<AOutput, BOutput, COutput, DOutput, Failure: Error>: FanInJustEntry {
  /// Hands an upstream's subscription to the subscription (first argument).
}

extension FanInEntry: SubjectDownstreamReflecting {
  /// A side's subscriber, for the mirror of a subject's conduit that keeps it as this
  /// entry and its side's index (see ``SubjectInlineSubscriber``).
  @usableFromInline
  internal func reflectedSubscriber(tag: UInt8) -> Any {
    switch FanInSide(rawValue: tag).unsafelyUnwrapped {
    case .a: return FanInSubscriber<AOutput, Failure>(parent: self, side: .a)
    case .b: return FanInSubscriber<BOutput, Failure>(parent: self, side: .b)
    case .c: return FanInSubscriber<COutput, Failure>(parent: self, side: .c)
    case .d: return FanInSubscriber<DOutput, Failure>(parent: self, side: .d)
    }
  }
}

/// Subscribes to one upstream (`side`) on behalf of ``FanInSubscription``; `Input` is that
/// side's value type.
///
/// Generic over that type and the failure only, and holding its fan-in as the non-generic
/// ``FanInJustEntry``: an `AnyPublisher`, which knows no more than its `Output` and
/// `Failure`, hands it to the publisher it erases as it is (see
/// `AnyPublisher.receive(subscriber:)`), where any other subscriber of a type it cannot
/// name is wrapped in an `AnySubscriber`, an allocation per subscription and a hop per
/// event.
@usableFromInline
@_eagerMove
internal struct FanInSubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible {
  @usableFromInline internal let parent: FanInJustEntry
  @usableFromInline internal let side: FanInSide
  /// The parent's address with the side's bit (its ``FanInSides`` member: 1, 2, 4 or 8) in
  /// the top byte: unique among live subscribers, and made without the atomic counter of
  /// `CombineIdentifier()`, which cost every upstream subscribed one atomic read-modify-write.
  @inlinable
  internal var combineIdentifier: CombineIdentifier { CombineIdentifier(parent, part: side.member.rawValue) }

  @inlinable
  internal init(parent: FanInJustEntry, side: FanInSide) {
    self.parent = parent
    self.side = side
  }

  @inlinable
  internal func receive(subscription: Subscription) { parent.receiveSubscription(parent, side, subscription) }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    // Unprotected: the handler reads exactly one value of this side's type through the
    // pointer (`Input` is that type: ``FanInSubscription`` makes each side's subscriber).
    withReadPointer(to: input) { parent.receive($0, from: side) }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    withUnsafePointer(to: completion) { parent.event(parent, .completion, side, $0, 0) }
  }

  @usableFromInline internal var description: String { (parent as? CustomStringConvertible)?.description ?? "" }
}

/// A subject keeps a side's subscriber as its parent and its side's index (see
/// ``SubjectInlineSubscriber``): no box per upstream that is a subject.
extension FanInSubscriber: SubjectInlineSubscriber {
  @inlinable
  internal var subjectReference: AnyObject { parent }

  @inlinable
  internal var subjectTag: UInt8 { side.rawValue }

  @inlinable
  internal static func subjectReceive(_ reference: AnyObject, tag: UInt8, value: UnsafeRawPointer) -> Subscribers.Demand
  {
    unsafeDowncast(reference, to: FanInJustEntry.self).receive(value, from: FanInSide(rawValue: tag).unsafelyUnwrapped)
  }

  @inlinable
  @inline(__always)
  internal static func subjectReceive(_ reference: AnyObject, tag: UInt8, subscription: Subscription) {
    let parent = unsafeDowncast(reference, to: FanInJustEntry.self)
    parent.receiveSubscription(parent, FanInSide(rawValue: tag).unsafelyUnwrapped, subscription)
  }

  @inlinable
  internal static func subjectReceive(_ reference: AnyObject, tag: UInt8, completion: UnsafeRawPointer) {
    let parent = unsafeDowncast(reference, to: FanInJustEntry.self)
    parent.event(parent, .completion, FanInSide(rawValue: tag).unsafelyUnwrapped, completion, 0)
  }
}
