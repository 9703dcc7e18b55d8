/// What a filter-like operator did with one upstream value.
///
/// Returned by ``FilteringLogic/receive(_:to:)``, which has already handed the value on
/// when it says so; ``FilteringSubscription`` does the rest. Not generic, on purpose: in
/// code the compiler did not specialise (a pipeline built by a generic helper in another
/// module), a value of a generic enum carrying the output and the failure made the runtime
/// look its metadata up in its cache of generic types, about 325 instructions, twice a value
/// (once where it was made, once where it was read).
@usableFromInline
internal enum FilteringVerdict {
  /// The value went downstream, which returned this demand (passed on upstream).
  case published(Subscribers.Demand)
  /// The value was dropped: ask upstream for one more (`.max(1)`), so that downstream still
  /// receives as many values as it asked for.
  case skipped
  /// The value went downstream (with this demand in return); now cancel upstream and finish
  /// (the last value of a range). The demand is still returned, as Apple's `output(in:)`
  /// does.
  case publishedAndFinished(Subscribers.Demand)
  /// Cancel upstream and finish without sending the value.
  case finished
  /// Cancel upstream and fail with the error (a throwing closure threw; only the `try`
  /// operators, whose failure is `any Error`, say this).
  case failed(any Error)
}

/// The per-value decision of one filter-like operator (`filter`, `tryMap`, `compactMap`,
/// `removeDuplicates`, `dropFirst`, `prefix(while:)`, `output(in:)`, …).
///
/// A logic is a small struct holding the operator's closure and whatever state it needs
/// (the previous value, a counter, whether it is still dropping). ``FilteringSubscription``
/// is generic over it, so `receive(_:to:)` is statically dispatched and specialised into the
/// client's pipeline: no closure, existential or allocation per element.
///
/// `receive(_:to:)` is only ever called from upstream's serialised `receive(_:)` and need not
/// be thread-safe. It hands a value on by calling the target (the downstream, borrowed), as
/// its last act: the downstream may send the next value from inside that call (by requesting
/// more of a synchronous upstream), which runs `receive(_:to:)` again, so every change of the
/// logic's state must be made before it.
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

  /// Decides what to do with one upstream value; hands the value to be published to
  /// `target` (after every change of state) and says what it did.
  mutating func receive<Target: Subscriber>(_ input: Input, to target: borrowing Target) -> FilteringVerdict
  where Target.Input == Output

  /// The failure sent downstream for an error the logic reported (`FilteringVerdict.failed`).
  func failure(_ error: any Error) -> Failure

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

extension FilteringLogic where Failure == any Error {
  @inlinable
  internal func failure(_ error: any Error) -> Failure { error }
}

extension FilteringLogic {
  /// Only the `try` operators (above) report errors of their own.
  @inlinable
  internal func failure(_ error: any Error) -> Failure {
    confluencePreconditionFailure("\(Self.name) reported an error, which it cannot send: \(error)")
  }

  @inlinable
  internal func reflectedChildren(downstream: Any, status: String) -> KeyValuePairs<String, Any> {
    ["downstream": downstream]
  }
}
