/// A scheduler that can take one action once and then run it any number of times, each
/// time it is asked, without being handed (and wrapping) a new closure each time.
///
/// `receive(on:)` schedules one action per event; through `Scheduler.schedule(options:_:)`
/// a dispatch queue must turn each closure into a new block (an allocation, freed on the
/// queue's thread). A scheduler conforming here (`DispatchQueue`, in ConfluenceFoundation)
/// makes the block once per subscription. Scheduling a prepared action is exactly
/// `schedule(options: nil, action)`: the same queue, the same order, one run per call.
@usableFromInline
package protocol PreparedActionScheduler {
  /// Returns `action`, ready to be scheduled with no options by
  /// ``PreparedSchedulerAction/schedule()``. The result holds `action` (and the scheduler)
  /// until it is released.
  func prepare(_ action: @escaping () -> Void) -> any PreparedSchedulerAction
}

/// An action prepared by a ``PreparedActionScheduler``.
@usableFromInline
package protocol PreparedSchedulerAction: AnyObject {
  /// Schedules the action to run once more, as `schedule(options: nil, action)` would.
  func schedule()
}
