/// What a filter-like operator does with one upstream value.
///
/// Returned by ``FilteringLogic/receive(_:)``; ``FilteringSubscription`` performs it.
@usableFromInline
internal enum FilteringAction<Output, Failure: Error> {
  /// Send the value downstream and pass on the demand the downstream returns.
  case publish(Output)
  /// Drop the value and ask upstream for one more (`.max(1)`), so that downstream still
  /// receives as many values as it asked for.
  case skip
  /// Send the value downstream, then cancel upstream and finish (the last value of a
  /// range); the downstream's demand is still returned, as Apple's `output(in:)` does.
  case publishAndFinish(Output)
  /// Cancel upstream and finish without sending the value.
  case finish
  /// Cancel upstream and fail with the error (a throwing closure threw).
  case fail(Failure)
}

/// The per-value decision of one filter-like operator (`filter`, `tryMap`, `compactMap`,
/// `removeDuplicates`, `dropFirst`, `prefix(while:)`, `output(in:)`, …).
///
/// A logic is a small struct holding the operator's closure and whatever state it needs
/// (the previous value, a counter, whether it is still dropping). ``FilteringSubscription``
/// is generic over it, so `receive(_:)` is statically dispatched and specialised into the
/// client's pipeline: no closure, existential or allocation per element.
///
/// `receive(_:)` is only ever called from upstream's serialised `receive(_:)`; it must not
/// call downstream (it returns what to do instead) and need not be thread-safe.
@usableFromInline
internal protocol FilteringLogic {
  /// The upstream's output.
  associatedtype Input
  /// The values sent downstream.
  associatedtype Output
  /// The upstream's failure.
  associatedtype UpstreamFailure: Error
  /// The failure sent downstream (`any Error` for the `try` operators).
  associatedtype Failure: Error

  /// What `print` shows for the subscription: Apple's operator name, e.g. `"TryMap"`.
  static var name: String { get }

  /// Decides what to do with one upstream value.
  mutating func receive(_ input: Input) -> FilteringAction<Output, Failure>

  /// Converts an upstream failure into the failure sent downstream.
  func convert(_ failure: UpstreamFailure) -> Failure

  /// How the operator treats events at the edges of its subscription (Apple's operators
  /// differ here, family by family).
  static var edges: FilteringEdges { get }

  /// The mirror's children besides none: Apple shows `downstream` for some operators,
  /// nothing for others, and operator state (the last value, the running result) for a few.
  func reflectedChildren(downstream: Any, status: String) -> KeyValuePairs<String, Any>
}

/// What a ``FilteringSubscription`` does with events that arrive outside its live span.
///
/// Three families, as the conformance suite records Apple's behaviour:
/// - ``strict`` (`tryFilter`, `tryCompactMap`, `removeDuplicates`, `prefix(while:)` and
///   their `try` forms): an
///   event or a request before the subscription is a programming error and traps; nothing
///   passes after completion or cancel; a cancel before the subscription is remembered.
/// - ``quiet`` (`drop(while:)`, `tryDrop(while:)`):
///   events before the subscription and after the end are dropped without calling the
///   closure; a cancel before the subscription is forgotten.
/// - ``stateless`` (`tryMap`, `tryScan`, `output(in:)`): every value is processed
///   whenever it comes, before the subscription and after the end alike; only completions
///   are gated (passed on once, while subscribed); a cancel before the subscription is
///   forgotten. `tryMap` reports every throw; `tryScan` only the first.
@usableFromInline
internal struct FilteringEdges: Sendable {
  /// Events and requests before the subscription trap.
  @usableFromInline internal let trapsBeforeSubscription: Bool
  /// Values are processed outside the live span (before the subscription, after the end).
  @usableFromInline internal let processesValuesOutsideLiveSpan: Bool
  /// A cancel before the subscription cancels the subscription when it comes.
  @usableFromInline internal let remembersEarlyCancel: Bool
  /// The operator's own failure (a throw) reaches the downstream even when no subscription
  /// is live (Apple's `tryMap` fails again on each throw after its first).
  @usableFromInline internal let reportsOwnFailureWhenDetached: Bool

  @inlinable
  internal init(
    trapsBeforeSubscription: Bool, processesValuesOutsideLiveSpan: Bool, remembersEarlyCancel: Bool,
    reportsOwnFailureWhenDetached: Bool
  ) {
    self.trapsBeforeSubscription = trapsBeforeSubscription
    self.processesValuesOutsideLiveSpan = processesValuesOutsideLiveSpan
    self.remembersEarlyCancel = remembersEarlyCancel
    self.reportsOwnFailureWhenDetached = reportsOwnFailureWhenDetached
  }

  @inlinable
  internal static var strict: FilteringEdges {
    FilteringEdges(
      trapsBeforeSubscription: true, processesValuesOutsideLiveSpan: false, remembersEarlyCancel: true,
      reportsOwnFailureWhenDetached: false)
  }

  @inlinable
  internal static var quiet: FilteringEdges {
    FilteringEdges(
      trapsBeforeSubscription: false, processesValuesOutsideLiveSpan: false, remembersEarlyCancel: false,
      reportsOwnFailureWhenDetached: false)
  }

  @inlinable
  internal static var stateless: FilteringEdges {
    FilteringEdges(
      trapsBeforeSubscription: false, processesValuesOutsideLiveSpan: true, remembersEarlyCancel: false,
      reportsOwnFailureWhenDetached: true)
  }
}

extension FilteringLogic {
  @inlinable
  internal func reflectedChildren(downstream: Any, status: String) -> KeyValuePairs<String, Any> {
    ["downstream": downstream]
  }
}
