import Confluence

/// A scheduler on a virtual clock that moves only when a test moves it.
///
/// Scheduled actions wait in a queue until the test calls ``advance(by:)``,
/// ``advance(to:)`` or ``run(maxActions:)``; then every action due by the new time runs,
/// in deadline order, with ``now`` set to the action's deadline while it runs. Actions due
/// at the same instant run in the order they were scheduled (FIFO). An action may schedule
/// more work: work that falls due inside the advanced span runs in the same call, at its
/// own virtual time.
///
/// The scheduler is generic over its time type, so it can stand in for a real scheduler in
/// code that is generic over `Scheduler`, or that expects a particular `SchedulerTimeType`
/// (a `TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>`
/// drives code written for `DispatchQueue`). ``VirtualTimeScheduler`` is the ready-made
/// instance over integer ticks.
///
/// ```swift
/// let scheduler = VirtualTimeScheduler()
/// var fired: [VirtualTime] = []
/// scheduler.schedule(after: 10) { fired.append(scheduler.now) }
/// scheduler.schedule(after: 5) { fired.append(scheduler.now) }
/// scheduler.advance(by: 7)     // fired == [5]
/// scheduler.run()              // fired == [5, 10]
/// ```
///
/// Every method may be called from any thread. The queue is guarded by a lock that is
/// never held while an action runs. Tolerance is ignored: actions run exactly at their
/// deadline. Actions scheduled for a time already past run at the next advance, at the
/// current time.
public final class TestScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
  // @unchecked Sendable: `clock`, `queue`, the counters and `options` are read and written
  // only under `lock`; actions are taken out of the queue under the lock and run after it
  // is released.

  /// The distance type of this scheduler's clock.
  public typealias Stride = SchedulerTimeType.Stride

  private struct Entry {
    let id: Int
    var sequence: Int
    var due: SchedulerTimeType
    let interval: Stride?
    let action: () -> Void
  }

  private let lock = Lock()
  private var clock: SchedulerTimeType
  private var queue: [Entry] = []
  private var nextSequence = 0
  private var nextID = 0
  private var executed = 0
  private var options: [SchedulerOptions?] = []

  /// Creates a test scheduler whose clock reads `now`.
  public init(now: SchedulerTimeType) {
    clock = now
    TestSubscriberRetirement.shared.register(scheduler: self)
  }

  // MARK: Scheduler

  /// The virtual current time; while an action runs, that action's deadline.
  public var now: SchedulerTimeType { lock.withLock { clock } }

  /// Zero: the test scheduler runs actions exactly at their deadline.
  public var minimumTolerance: Stride { .zero }

  /// Queues `action` to run at the current virtual time, after the work already due now.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    lock.withLock {
      self.options.append(options)
      enqueue(due: clock, interval: nil, action)
    }
  }

  /// Queues `action` to run when the virtual clock reaches `date`.
  public func schedule(
    after date: SchedulerTimeType, tolerance: Stride, options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    lock.withLock {
      self.options.append(options)
      enqueue(due: date, interval: nil, action)
    }
  }

  /// Queues `action` to run at `date` and then every `interval` after it, until the
  /// returned cancellable is cancelled (or released).
  ///
  /// - Precondition: `interval` is greater than zero.
  public func schedule(
    after date: SchedulerTimeType, interval: Stride, tolerance: Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> Cancellable {
    confluencePrecondition(interval > .zero, "TestScheduler: a repeating schedule needs an interval greater than zero")
    let id = lock.withLock { () -> Int in
      self.options.append(options)
      return enqueue(due: date, interval: interval, action)
    }
    return AnyCancellable { [weak self] in self?.removeEntry(id) }
  }

  /// Queues `action` for `date`; cancelling the result takes it out of the queue.
  internal func scheduleCancellable(after date: SchedulerTimeType, _ action: @escaping () -> Void) -> AnyCancellable {
    let id = lock.withLock { enqueue(due: date, interval: nil, action) }
    return AnyCancellable { [weak self] in self?.removeEntry(id) }
  }

  // MARK: Driving the clock

  /// Moves the clock forward by `interval`, running every action that falls due.
  public func advance(by interval: Stride) {
    advance(to: now.advanced(by: interval))
  }

  /// Moves the clock forward to `instant`, running every action that falls due, each at
  /// its own deadline. If `instant` is before ``now``, runs what is due now and leaves the
  /// clock where it is.
  public func advance(to instant: SchedulerTimeType) {
    while let entry = takeNext(dueBy: instant) {
      entry.action()
    }
    lock.withLock {
      if clock < instant { clock = instant }
    }
  }

  /// Runs until no work is left, moving the clock to each deadline in turn.
  ///
  /// Repeating schedules never run out; the loop stops after `maxActions` actions.
  ///
  /// - Parameter maxActions: The most actions to run in this call.
  /// - Returns: Whether the queue was emptied (`false` if `maxActions` stopped it).
  @discardableResult
  public func run(maxActions: Int = 100_000) -> Bool {
    var ran = 0
    while ran < maxActions, let entry = takeNext(dueBy: nil) {
      entry.action()
      ran += 1
    }
    return pendingActionCount == 0
  }

  // MARK: Inspection

  /// How many actions wait in the queue (a repeating schedule counts once).
  public var pendingActionCount: Int { lock.withLock { queue.count } }

  /// How many actions have run so far.
  public var executedActionCount: Int { lock.withLock { executed } }

  /// The options passed with each schedule call, in order.
  public var scheduledOptions: [SchedulerOptions?] { lock.withLock { options } }

  // MARK: Queue

  /// Adds an entry; call with the lock held. Returns its id.
  @discardableResult
  private func enqueue(due: SchedulerTimeType, interval: Stride?, _ action: @escaping () -> Void) -> Int {
    let id = nextID
    nextID += 1
    queue.append(Entry(id: id, sequence: nextSequence, due: due, interval: interval, action: action))
    nextSequence += 1
    return id
  }

  private func removeEntry(_ id: Int) {
    // The removed action is released outside the lock: its captures may run deinits.
    let removed = lock.withLock { () -> Entry? in
      guard let index = queue.firstIndex(where: { $0.id == id }) else { return nil }
      return queue.remove(at: index)
    }
    _ = removed
  }

  /// Takes the earliest entry due by `limit` (any entry if `limit` is nil), moving the
  /// clock to its deadline; a repeating entry is put back for its next deadline.
  private func takeNext(dueBy limit: SchedulerTimeType?) -> Entry? {
    lock.withLock { () -> Entry? in
      var best: Int?
      for index in queue.indices {
        let entry = queue[index]
        if let limit, entry.due > limit, entry.due > clock { continue }
        if let current = best {
          let other = queue[current]
          if entry.due < other.due || (entry.due == other.due && entry.sequence < other.sequence) {
            best = index
          }
        } else {
          best = index
        }
      }
      guard let best else { return nil }
      let entry = queue[best]
      if clock < entry.due { clock = entry.due }
      if let interval = entry.interval {
        queue[best].due = entry.due.advanced(by: interval)
        queue[best].sequence = nextSequence
        nextSequence += 1
      } else {
        queue.remove(at: best)
      }
      executed += 1
      return entry
    }
  }
}

/// A ``TestScheduler`` over ``VirtualTime`` ticks, with no options.
public typealias VirtualTimeScheduler = TestScheduler<VirtualTime, Never>

extension TestScheduler where SchedulerTimeType == VirtualTime, SchedulerOptions == Never {
  /// Creates a virtual-time test scheduler whose clock reads `initialClock` ticks.
  ///
  /// ```swift
  /// let testScheduler = TestScheduler(initialClock: 0)
  /// ```
  public convenience init(initialClock: VirtualTime = 0) {
    self.init(now: initialClock)
  }
}

extension TestScheduler: RetirableAtTestEnd {
  /// The test is over: the actions nobody advanced the clock to are dropped (each holds
  /// what scheduled it, which holds this scheduler), released outside the lock.
  internal func retireAtTestEnd() {
    let dropped = lock.withLock { () -> [Entry] in
      defer { queue = [] }
      return queue
    }
    withExtendedLifetime(dropped) {}
  }
}
