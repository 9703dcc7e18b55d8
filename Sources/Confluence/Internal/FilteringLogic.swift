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
  /// Send the value downstream, then cancel upstream and finish (the last value of a range).
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
}

