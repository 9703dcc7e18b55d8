/// One step of a run passed on through an operator (`Subscriber._receiveRun`): pulls the
/// next value from `next` and hands it to `step`, which returns what goes downstream — a
/// value, `.some(nil)` for a value it drops, or `nil` to end the run. The end of the values
/// (`nil`) and a value dropped upstream (`.some(nil)`) pass through without calling `step`.
///
/// ```swift
/// downstream._receiveRun(nextRunsNoUserCode: false) { runStep(next) { transform($0) } }
/// ```
@inlinable
@inline(__always)
internal func runStep<Input, Output>(_ next: () -> Input??, _ step: (Input) -> Output??) -> Output?? {
  guard let pulled = next() else { return nil }
  guard let input = pulled else { return .some(nil) }
  return step(input)
}
