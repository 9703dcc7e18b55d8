/// What a fan-in's state decided for the next delivery, without the output: ``FanInState``'s
/// `nextStep()`. A value's critical section switches over it and takes the output itself when
/// it is `deliver`, so that the value path forms no `FanInState.Next`, a nested generic enum
/// that code the compiler did not specialise looked up in the runtime's cache twice per value.
@usableFromInline
internal enum FanInStep {
  /// Nothing to deliver now.
  case idle
  /// An output is ready and this thread owns delivery: take it with
  /// `FanInLogic.takeReadyOutput()` in the same critical section.
  case deliver
  /// No further output can come: finish (`FanInState.finishAll()`) in the same critical
  /// section.
  case finish
}
