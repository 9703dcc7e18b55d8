/// A scheduler action on its way to the one executor that runs it.
///
/// `Scheduler` takes actions as plain `@escaping () -> Void` closures (Apple's signatures,
/// so code written for Combine compiles unchanged), while `DispatchQueue.async`,
/// `RunLoop.perform`, `Timer` and `OperationQueue.addOperation` take `@Sendable` blocks.
/// This box carries the action across that boundary without copying or re-wrapping it.
///
/// It is a struct, so capturing it costs no allocation beyond the block's own context.
//
// @unchecked Sendable: the scheduler contract hands each action to exactly one executor —
// one dispatch queue, one run loop, one operation queue — and the scheduling thread gives
// up the closure when it calls `schedule`. The action is never run on two threads at once
// by the scheduler itself: a repeating dispatch timer runs its handler serially, and a run
// loop runs on its one thread. The only exception is a repeating action on a concurrent
// `OperationQueue` whose ticks outlast the interval, which is what the caller asked for
// (as on Darwin).
internal struct ScheduledAction: @unchecked Sendable {
  internal let run: () -> Void

  @inline(__always)
  internal init(_ action: @escaping () -> Void) {
    run = action
  }
}
