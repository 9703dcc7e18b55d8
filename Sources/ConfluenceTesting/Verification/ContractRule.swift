/// A rule of the publisher contract, as ``PublisherVerification`` checks it: each has a
/// number and a one-line text that failures quote.
///
/// The numbering follows the article <doc:WritingYourOwnPublisher>.
///
/// ```swift
/// print(ContractRule.neverMoreThanDemanded)
/// // "Rule 2: never more values than the demand requested"
/// ```
public enum ContractRule: Int, CaseIterable, Sendable, CustomStringConvertible {
  /// `receive(subscription:)` exactly once, before anything else.
  case subscriptionFirst = 1
  /// No value beyond the demand granted.
  case neverMoreThanDemanded
  /// Requests and demand returned from `receive(_:)` add up.
  case demandAccumulates
  /// Demand saturates at `.unlimited`.
  case demandSaturates
  /// At most one completion.
  case atMostOneCompletion
  /// Nothing after the completion.
  case nothingAfterCompletion
  /// Nothing after `cancel()` returned.
  case nothingAfterCancel
  /// A second `cancel()`, or a request after it, does nothing.
  case cancelIsIdempotent
  /// `cancel()` from inside `receive(_:)` is safe and ends delivery.
  case cancelInsideReceive
  /// `request(_:)` from inside `receive(_:)` is honoured without re-entering it.
  case reentrantRequest
  /// Requests and cancels from other threads while it emits.
  case requestsFromOtherThreads
  /// The subscriber is released after the completion.
  case releasesSubscriberAfterCompletion
  /// The subscriber is released after `cancel()`.
  case releasesSubscriberAfterCancel
  /// `request(.none)` grants nothing.
  case requestNoneGrantsNothing

  /// The rule's number, from 1.
  public var number: Int { rawValue }

  /// The rule in one line.
  public var text: String {
    switch self {
    case .subscriptionFirst:
      return "receive(subscription:) is called exactly once, before any value or completion"
    case .neverMoreThanDemanded:
      return "never more values than the demand requested"
    case .demandAccumulates:
      return
        "demand is additive: each request(_:) and each demand returned from receive(_:) adds to what is outstanding"
    case .demandSaturates:
      return "demand saturates at .unlimited: a sum past Int.max, or anything added to .unlimited, is unlimited"
    case .atMostOneCompletion:
      return "at most one completion"
    case .nothingAfterCompletion:
      return "nothing after the completion, even when more is requested"
    case .nothingAfterCancel:
      return "nothing after cancel(): no value or completion once it returned, whatever is requested later"
    case .cancelIsIdempotent:
      return "cancel() is idempotent: a second cancel(), or a request after it, does nothing and does not trap"
    case .cancelInsideReceive:
      return "cancel() from inside receive(_:) is safe and ends delivery"
    case .reentrantRequest:
      return "request(_:) from inside receive(_:) is honoured, without re-entering receive(_:)"
    case .requestsFromOtherThreads:
      return
        "request(_:) and cancel() may come from other threads while it emits: deliveries stay serialised and within demand"
    case .releasesSubscriberAfterCompletion:
      return "after the completion it lets go of the subscriber"
    case .releasesSubscriberAfterCancel:
      return "after cancel() it lets go of the subscriber"
    case .requestNoneGrantsNothing:
      return "request(.none) grants nothing: it traps as API misuse (as most of Apple's publishers do) or is ignored"
    }
  }

  public var description: String { "Rule \(number): \(text)" }
}
