extension Publishers {
  /// A strategy for collecting received elements.
  ///
  /// ```swift
  /// publisher.collect(.byTime(RunLoop.main, .seconds(1)))
  /// publisher.collect(.byTimeOrCount(RunLoop.main, .seconds(1), 10))
  /// ```
  public enum TimeGroupingStrategy<Context: Scheduler> {
    /// A grouping that collects and periodically publishes items.
    case byTime(Context, Context.SchedulerTimeType.Stride)

    /// A grouping that collects and publishes items periodically or when a buffer reaches
    /// a maximum size.
    case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
  }
}
