/// What one until-output operator (`drop(untilOutputFrom:)`, `prefix(untilOutputFrom:)`)
/// does differently from the other; ``UntilOutputSubscription`` does everything else.
///
/// A logic is a namespace: the operator's name, its ``UntilOutputRules`` and what the other
/// publisher's completion means for it. ``UntilOutputSubscription`` is generic over it, so
/// each rule is a constant the compiler folds into the operator's specialisation.
@usableFromInline
internal protocol UntilOutputLogic {
  /// The operator's failure: upstream's.
  associatedtype Failure: Error
  /// The other publisher's failure.
  associatedtype OtherFailure: Error

  /// Apple's name for the operator (`"DropUntilOutput"`), used by the descriptions of the
  /// operators that have them and by trap messages.
  static var name: String { get }

  /// The operator's method, as a trap message names it (`"drop(untilOutputFrom:)"`).
  static var method: String { get }

  /// Where the operator stands on each edge its family treats two ways.
  static var rules: UntilOutputRules { get }

  /// The other publisher's completion before its first value, as the completion the
  /// operator sends downstream, or `nil` when it changes nothing.
  static func completion(forOthers completion: Subscribers.Completion<OtherFailure>) -> Subscribers.Completion<
    Failure
  >?
}

/// An until-output operator whose subscriber, subscription and other-publisher subscriber
/// describe themselves by the operator's name (`description`, `playgroundDescription`) with
/// an empty mirror, as Apple's `drop(untilOutputFrom:)` does. Apple's
/// `prefix(untilOutputFrom:)` has no custom description or mirror at all.
@usableFromInline
internal protocol DescribedUntilOutputLogic: UntilOutputLogic {}

/// The edges on which Apple's two until-output operators differ, as the conformance suite
/// records them. Every flag is `true` for the operator that has the rule:
///
/// | rule | `drop(untilOutputFrom:)` | `prefix(untilOutputFrom:)` |
/// | --- | --- | --- |
/// | ``handsDownstreamItsSubscriptionFirst`` | yes | no: with upstream's |
/// | ``otherValueFinishes`` | no: it starts publishing | yes |
/// | ``countsDemand`` | yes (traps beyond it) | no |
/// | ``cancelsOther`` | yes | no: never |
/// | ``ignoresEventsBeforeSubscription`` | no | yes |
/// | ``completesOnce`` | no: every completion passes | yes |
@usableFromInline
internal struct UntilOutputRules: Sendable {
  /// The downstream receives its subscription as the operator is subscribed, before the
  /// other publisher and upstream are; otherwise when upstream's subscription arrives.
  @usableFromInline internal let handsDownstreamItsSubscriptionFirst: Bool
  /// The other's first value cancels upstream and finishes the downstream; otherwise it
  /// starts the passing of upstream's values (dropped until then).
  @usableFromInline internal let otherValueFinishes: Bool
  /// The operator counts the demand it passed upstream and traps on a value beyond it; a
  /// value dropped before the other's value uses up a unit.
  @usableFromInline internal let countsDemand: Bool
  /// Upstream's completion and the downstream's cancel cancel the other's subscription;
  /// otherwise the operator only lets go of it.
  @usableFromInline internal let cancelsOther: Bool
  /// Values and completions a source sends before its subscription are ignored (a value
  /// answered with `.none`); otherwise they count as any other.
  @usableFromInline internal let ignoresEventsBeforeSubscription: Bool
  /// Upstream's completion ends the operator (a later subscription is cancelled); otherwise
  /// every completion is passed on and a later upstream subscription is accepted.
  @usableFromInline internal let completesOnce: Bool

  @inlinable
  internal init(
    handsDownstreamItsSubscriptionFirst: Bool, otherValueFinishes: Bool, countsDemand: Bool, cancelsOther: Bool,
    ignoresEventsBeforeSubscription: Bool, completesOnce: Bool
  ) {
    self.handsDownstreamItsSubscriptionFirst = handsDownstreamItsSubscriptionFirst
    self.otherValueFinishes = otherValueFinishes
    self.countsDemand = countsDemand
    self.cancelsOther = cancelsOther
    self.ignoresEventsBeforeSubscription = ignoresEventsBeforeSubscription
    self.completesOnce = completesOnce
  }
}
