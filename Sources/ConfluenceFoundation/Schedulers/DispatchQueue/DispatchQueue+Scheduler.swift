import Dispatch

/// A dispatch queue is a scheduler: actions run on the queue, after a `DispatchTime`.
///
/// ```swift
/// let queue = DispatchQueue(label: "work")
/// queue.schedule { print("soon, on the queue") }
/// queue.schedule(after: queue.now.advanced(by: .milliseconds(100))) { print("later") }
/// let timer = queue.schedule(after: queue.now, interval: .seconds(1)) { print("tick") }
/// timer.cancel()   // no more ticks
/// ```
///
/// `DispatchQueue.main` runs its actions when the main thread runs `dispatchMain()` or
/// its run loop (`RunLoop.main.run(until:)`), as on Darwin.
///
/// All methods may be called from any thread.
extension DispatchQueue: Scheduler {
  /// This scheduler’s definition of the current moment in time: `DispatchTime.now()`.
  public var now: SchedulerTimeType {
    SchedulerTimeType(.now())
  }

  /// The minimum tolerance allowed by the scheduler: zero.
  public var minimumTolerance: SchedulerTimeType.Stride {
    SchedulerTimeType.Stride(nanoseconds: 0)
  }

  /// Performs the action on the queue at the next possible opportunity.
  ///
  /// Actions scheduled from one thread onto a serial queue run in the order they were
  /// scheduled.
  ///
  /// ```swift
  /// DispatchQueue.main.schedule { print("on the main queue") }
  /// ```
  ///
  /// - Parameters:
  ///   - options: The quality of service, work item flags and dispatch group to use, if
  ///     any.
  ///   - action: The action to perform.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    // The action itself becomes the dispatch block: wrapping it in a second closure would
    // allocate that closure's context on every call (this is the per-value path of
    // `receive(on:)`, and `delay`'s below). See `sendableBlock(_:)` for why the conversion
    // is sound.
    let block = Self.sendableBlock(action)
    guard let options else {
      async(execute: block)
      return
    }
    if let group = options.group {
      async(group: group, qos: options.qos, flags: options.flags, execute: block)
    } else {
      async(qos: options.qos, flags: options.flags, execute: block)
    }
  }

  /// The scheduler's action as the `@Sendable` block that `async` takes, without a wrapper.
  ///
  /// `Scheduler` hands actions over as plain closures (Apple's signature), and the
  /// scheduling thread gives the action up when it calls `schedule`: the queue is the only
  /// one to run it, once — the contract that `ScheduledAction` states for the other
  /// schedulers. `@Sendable` is a compile-time mark only; the two function types have the
  /// same representation, so the cast changes nothing at run time.
  ///
  /// The closures are cast inside structs: cast directly, `unsafeBitCast`'s generic
  /// parameters would make the compiler wrap each in a reabstraction thunk, allocating two
  /// contexts per call.
  @inline(__always)
  static func sendableBlock(_ action: @escaping () -> Void) -> @Sendable () -> Void {
    unsafeBitCast(PlainAction(run: action), to: SendableAction.self).run
  }

  /// Performs the action on the queue at some time after the specified date.
  ///
  /// The tolerance is ignored, and a dispatch group in the options is not used, as on
  /// Darwin. A date in the past runs the action as soon as possible.
  ///
  /// ```swift
  /// let queue = DispatchQueue.global()
  /// queue.schedule(after: queue.now.advanced(by: .seconds(1)), tolerance: .zero, options: nil) {
  ///   print("a second later")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - date: The time after which to perform the action.
  ///   - tolerance: The allowed variance; not used.
  ///   - options: The quality of service and work item flags to use, if any.
  ///   - action: The action to perform.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) {
    asyncAfter(
      deadline: date.dispatchTime, qos: options?.qos ?? .unspecified, flags: options?.flags ?? [],
      execute: Self.sendableBlock(action))
  }

  /// Performs the action on the queue at some time after the specified date, and then
  /// again at the specified interval, until cancelled.
  ///
  /// The repetition is a `DispatchSourceTimer` targeting this queue, with the tolerance
  /// as its leeway. Its handler runs serially: a tick never overlaps the previous one.
  /// Cancelling the returned value (or releasing it: it is an `AnyCancellable`) stops the
  /// timer; an action already running finishes.
  ///
  /// ```swift
  /// let queue = DispatchQueue.main
  /// var counter = 0
  /// let cancellable = queue.schedule(after: queue.now, interval: .seconds(1)) {
  ///   counter += 1
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - date: The time of the first run.
  ///   - interval: The time between runs.
  ///   - tolerance: The leeway the system may take with each run.
  ///   - options: The quality of service and work item flags for the handler, if any.
  ///   - action: The action to perform.
  /// - Returns: A cancellable that stops the repetition.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) -> Cancellable {
    let source = DispatchSource.makeTimerSource(queue: self)
    source.schedule(
      deadline: date.dispatchTime, repeating: interval.timeInterval,
      leeway: .nanoseconds(Swift.max(tolerance.magnitude, 0)))
    if let options {
      source.setEventHandler(qos: options.qos, flags: options.flags, handler: action)
    } else {
      source.setEventHandler(handler: action)
    }
    source.resume()
    return AnyCancellable { source.cancel() }
  }
}

/// A scheduler's action as `Scheduler` hands it over (see `DispatchQueue.sendableBlock(_:)`).
private struct PlainAction {
  let run: () -> Void
}

/// The same action, marked `@Sendable` (see `DispatchQueue.sendableBlock(_:)`).
private struct SendableAction {
  let run: @Sendable () -> Void
}
