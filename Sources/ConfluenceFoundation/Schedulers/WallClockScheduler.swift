import Confluence
import Foundation

/// A scheduler whose clock is the wall clock, with a ``DateSchedulerTime``: `RunLoop` and
/// `OperationQueue`, whose `now` and `minimumTolerance` are written once here.
///
/// The members are public so that they can stand for `Scheduler`'s requirements; they are
/// reached through that conformance.
@usableFromInline
internal protocol WallClockScheduler: Scheduler where SchedulerTimeType: DateSchedulerTime {}

extension WallClockScheduler {
  /// This scheduler’s definition of the current moment in time: `Date()`.
  ///
  /// ```swift
  /// let deadline = RunLoop.main.now.advanced(by: .seconds(1))
  /// ```
  public var now: SchedulerTimeType {
    SchedulerTimeType(Date())
  }

  /// The minimum tolerance allowed by the scheduler: zero.
  public var minimumTolerance: SchedulerTimeType.Stride {
    SchedulerTimeType.Stride(0)
  }
}
