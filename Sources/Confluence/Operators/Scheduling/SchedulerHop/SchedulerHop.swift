/// How a ``SchedulerHopSubscription`` hands each event to its scheduler: what tells
/// `receive(on:)` (at the next opportunity) apart from `delay(for:…)` (after an interval).
@usableFromInline
internal protocol SchedulerHop {
  /// What `print` shows for the subscription (`ReceiveOn`, `Delay`).
  static var name: String { get }

  /// Schedules `action`, which delivers one event downstream.
  func schedule(_ action: @escaping () -> Void)

  /// `action` prepared once to be scheduled as ``schedule(_:)`` would schedule it, if the
  /// scheduler can (see ``PreparedActionScheduler``); `nil` otherwise.
  func prepare(_ action: @escaping () -> Void) -> (any PreparedSchedulerAction)?
}

extension SchedulerHop {
  @inlinable
  internal func prepare(_ action: @escaping () -> Void) -> (any PreparedSchedulerAction)? { nil }
}

/// `receive(on:options:)`: each event at the scheduler's next opportunity.
@usableFromInline
internal struct ReceiveOnHop<Context: Scheduler>: DescribedSchedulerHop {
  @usableFromInline internal let scheduler: Context
  @usableFromInline internal let options: Context.SchedulerOptions?

  @inlinable
  internal init(scheduler: Context, options: Context.SchedulerOptions?) {
    self.scheduler = scheduler
    self.options = options
  }

  @inlinable internal static var name: String { "ReceiveOn" }

  @inlinable
  internal func schedule(_ action: @escaping () -> Void) {
    scheduler.schedule(options: options, action)
  }

  /// With no options, a scheduler that can prepare an action does.
  @inlinable
  internal func prepare(_ action: @escaping () -> Void) -> (any PreparedSchedulerAction)? {
    guard options == nil, let scheduler = scheduler as? any PreparedActionScheduler else { return nil }
    return scheduler.prepare(action)
  }
}

/// `delay(for:tolerance:scheduler:options:)`: each event `interval` after it arrived.
@usableFromInline
internal struct DelayHop<Context: Scheduler>: SchedulerHop {
  @usableFromInline internal let interval: Context.SchedulerTimeType.Stride
  @usableFromInline internal let tolerance: Context.SchedulerTimeType.Stride
  @usableFromInline internal let scheduler: Context
  @usableFromInline internal let options: Context.SchedulerOptions?

  @inlinable
  internal init(
    interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride, scheduler: Context,
    options: Context.SchedulerOptions?
  ) {
    self.interval = interval
    self.tolerance = tolerance
    self.scheduler = scheduler
    self.options = options
  }

  @inlinable internal static var name: String { "Delay" }

  @inlinable
  internal func schedule(_ action: @escaping () -> Void) {
    scheduler.schedule(after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options, action)
  }
}
