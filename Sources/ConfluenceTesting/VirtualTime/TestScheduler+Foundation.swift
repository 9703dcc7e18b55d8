import Confluence
import ConfluenceFoundation
import Foundation

extension TestScheduler
where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == DispatchQueue.SchedulerOptions {
  /// A virtual-time scheduler with `DispatchQueue`'s time and option types, for testing
  /// code written against a dispatch queue scheduler.
  ///
  /// ```swift
  /// let scheduler = TestScheduler.dispatchQueue()
  /// let cancellable = input.debounce(for: .milliseconds(300), scheduler: scheduler).sink { print($0) }
  /// scheduler.advance(by: .milliseconds(300))
  /// ```
  ///
  /// - Parameter uptimeNanoseconds: Where the virtual clock starts (Dispatch treats 0 as
  ///   "now", so the default is 1).
  public static func dispatchQueue(uptimeNanoseconds: UInt64 = 1) -> TestScheduler {
    TestScheduler(now: DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: uptimeNanoseconds)))
  }
}

extension TestScheduler
where SchedulerTimeType == RunLoop.SchedulerTimeType, SchedulerOptions == RunLoop.SchedulerOptions {
  /// A virtual-time scheduler with `RunLoop`'s time and option types, for testing code
  /// written against a run loop scheduler.
  ///
  /// - Parameter date: Where the virtual clock starts.
  public static func runLoop(startingAt date: Date = Date(timeIntervalSinceReferenceDate: 0)) -> TestScheduler {
    TestScheduler(now: RunLoop.SchedulerTimeType(date))
  }
}

extension TestScheduler
where SchedulerTimeType == OperationQueue.SchedulerTimeType, SchedulerOptions == OperationQueue.SchedulerOptions {
  /// A virtual-time scheduler with `OperationQueue`'s time and option types, for testing
  /// code written against an operation queue scheduler.
  ///
  /// - Parameter date: Where the virtual clock starts.
  public static func operationQueue(startingAt date: Date = Date(timeIntervalSinceReferenceDate: 0)) -> TestScheduler {
    TestScheduler(now: OperationQueue.SchedulerTimeType(date))
  }
}
