// The per-operator half of every reducing operator (`collect`, `reduce`, `count`, `min`,
// `contains`, `allSatisfy`, `first`, `last`, …).
//
// A logic is a small struct that sees each upstream value and decides, without knowing
// anything about demand, locks or subscribers, whether the stream goes on, ends early with
// a result, or fails. `ReducingSubscription` owns one and does everything else: it requests
// `.unlimited` upstream as soon as upstream subscribes, holds the result (or the bare
// finish) until downstream has asked for something, cancels upstream on an early end, and
// keeps the contract. Because the subscription is generic over the logic, each
// `reduce(_:)` call is statically dispatched and specialised in client code.

/// What a ``ReducingLogic`` decided after seeing one upstream value.
@usableFromInline
internal enum ReducingStep<Output, Failure: Error> {
  /// Keep consuming upstream values.
  case proceed
  /// The result is known: cancel upstream, publish `output` (if any), then finish.
  case finish(Output?)
  /// A throwing closure failed: cancel upstream and fail downstream.
  case fail(Failure)
}

/// The accumulate-and-decide half of a reducing operator.
///
/// `reduce(_:)` and `finish()` are only called from upstream events, which the contract
/// serialises, so a logic needs no synchronisation of its own.
@usableFromInline
internal protocol ReducingLogic {
  /// The upstream's values.
  associatedtype Input
  /// The single value published downstream.
  associatedtype Output
  /// The downstream's failure: the upstream's for plain operators, `any Error` for `try…`.
  associatedtype Failure: Error

  /// The subscription's `description`, as Apple's `print` shows it (`"Reduce"`, …).
  static var name: String { get }

  /// The result before any value arrived (`reduce`'s initial value, `0` for `count`,
  /// `false` for `contains`, …), or `nil` for operators that have none (`first`, `min`).
  /// Read once, when the subscription is made, for the mirror's `initial` child.
  var initial: Output? { get }

  /// The children of the subscription's `customMirror`. Apple shows `downstream`, `result`,
  /// `initial` and `status` for the family; a member that shows something else (`collect`
  /// shows only `count`) says so here.
  ///
  /// - Parameters:
  ///   - result: the result once upstream has ended and it waits for demand, else `nil`.
  ///   - status: where the upstream subscription stands.
  static func mirrorChildren(downstream: Any, result: Output?, initial: Output?, status: Any) -> [Mirror.Child]

  /// Takes one upstream value.
  mutating func reduce(_ input: Input) -> ReducingStep<Output, Failure>

  /// Upstream finished: the value to publish before finishing, if any. Called at most once;
  /// a logic should move its accumulated storage out rather than copy it.
  mutating func finish() -> Output?
}

extension ReducingLogic {
  @inlinable
  internal var initial: Output? { nil }

  @inlinable
  internal static func mirrorChildren(
    downstream: Any, result: Output?, initial: Output?, status: Any
  ) -> [Mirror.Child] {
    [("downstream", downstream), ("result", result as Any), ("initial", initial as Any), ("status", status)]
  }
}
