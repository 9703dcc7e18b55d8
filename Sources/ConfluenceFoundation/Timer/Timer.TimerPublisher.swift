import Confluence
import Foundation

extension Timer {
  /// A publisher that repeatedly emits the current date on a given interval.
  ///
  /// Create one with ``Foundation/Timer/publish(every:tolerance:on:in:options:)``. It is a
  /// `ConnectablePublisher`: subscribers may attach at any time, and the timer starts
  /// only when you call ``connect()``. Each tick sends `Date()` to every subscriber.
  ///
  /// ```swift
  /// let publisher = Timer.publish(every: 1.0, on: .main, in: .common)
  /// var counter = 0
  /// let subscription = publisher.sink { _ in
  ///   counter += 1
  ///   print("Counter is \(counter)")
  /// }
  /// let connection = publisher.connect()
  /// RunLoop.main.run(until: Date(timeIntervalSinceNow: 3.5))
  /// // Counter is 1
  /// // Counter is 2
  /// // Counter is 3
  /// connection.cancel()   // invalidates the timer; subscribers stay, without completion
  /// ```
  ///
  /// Back-pressure: each subscriber gets a tick only while it has outstanding demand; a
  /// tick that finds a subscriber without demand is dropped for that subscriber (nothing
  /// is buffered). The publisher never completes.
  ///
  /// One timer serves every subscriber. Calling ``connect()`` while connected returns
  /// another handle to the same connection; after the connection is cancelled, calling it
  /// again starts a new timer. `connect()`, subscribing, `request(_:)` and `cancel()` may
  /// be called from any thread; values arrive on the run loop's thread.
  public final class TimerPublisher: ConnectablePublisher {
    /// The kind of values published by this publisher: the date of each tick.
    public typealias Output = Date

    /// The kind of errors this publisher might publish: it never fails.
    public typealias Failure = Never

    /// The time interval between ticks, in seconds.
    public final let interval: TimeInterval

    /// The allowed timing variance when emitting events; `nil` allows any variance.
    public final let tolerance: TimeInterval?

    /// The run loop on which the timer runs.
    public final let runLoop: RunLoop

    /// The run loop mode in which the timer runs.
    public final let mode: RunLoop.Mode

    /// The scheduler options passed to the timer.
    public final let options: RunLoop.SchedulerOptions?

    private let routing = TimerRouting()

    /// Creates a publisher that repeatedly emits the current date on the given interval.
    ///
    /// ```swift
    /// let publisher = Timer.TimerPublisher(interval: 0.5, runLoop: .main, mode: .default)
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The interval on which to publish events.
    ///   - tolerance: The allowed timing variance when emitting events. Defaults to `nil`,
    ///     which allows any variance.
    ///   - runLoop: The run loop on which the timer runs.
    ///   - mode: The run loop mode in which to run the timer.
    ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
    public init(
      interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop, mode: RunLoop.Mode,
      options: RunLoop.SchedulerOptions? = nil
    ) {
      self.interval = interval
      self.tolerance = tolerance
      self.runLoop = runLoop
      self.mode = mode
      self.options = options
    }

    /// Attaches the subscriber; it receives ticks once the publisher is connected and it
    /// has requested values.
    ///
    /// - Parameter subscriber: The subscriber to attach.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
      let subscription = TimerSubscription(downstream: subscriber, publisher: self, routing: routing)
      subscriber.receive(subscription: subscription)
      // Ticks reach the subscriber only from here on, so none can overtake
      // `receive(subscription:)`.
      routing.add(subscription)
    }

    /// Connects to the publisher: installs a repeating timer on the run loop, in the
    /// publisher's mode.
    ///
    /// ```swift
    /// let publisher = Timer.publish(every: 0.1, on: .main, in: .default)
    /// let connection = publisher.connect()
    /// // …
    /// connection.cancel()
    /// ```
    ///
    /// - Returns: A `Cancellable` that invalidates the timer. Releasing it without
    ///   cancelling leaves the timer running.
    public func connect() -> Cancellable {
      let interval = self.interval
      let routing = self.routing
      let (timer, isNew) = routing.connect {
        // The first tick comes one interval after connecting. (Not
        // `Timer(timeInterval:repeats:block:)`: swift-corelibs-foundation fires that one at
        // once.)
        Timer(fire: Date(timeIntervalSinceNow: interval), interval: interval, repeats: true) { _ in routing.tick() }
      }
      if isNew {
        if let tolerance { timer.tolerance = Swift.max(tolerance, 0) }
        runLoop.add(timer, forMode: mode)
      }
      return TimerConnection(routing: routing, timer: timer)
    }
  }
}

/// One subscriber's view of a ``Foundation/Timer/TimerPublisher``: ticks become values
/// while the subscriber has demand.
internal protocol TimerTickReceiver: AnyObject {
  /// Delivers the tick if the subscriber has demand; drops it otherwise.
  func receiveTick(_ date: Date)

  /// Whether the subscriber cancelled.
  var isCancelled: Bool { get }
}

/// The state one timer publisher shares with its timer and its subscriptions: the
/// attached subscriptions and the current timer, if connected.
//
// @unchecked Sendable: the timer's block (which must be `@Sendable`) captures this object;
// `receivers` and `timer` are read and written only under `lock`, and nothing is called
// while the lock is held.
internal final class TimerRouting: @unchecked Sendable {
  private let lock = Lock()
  private var receivers: [any TimerTickReceiver] = []
  private var timer: Timer?

  /// Adds a subscription that has received its `Subscription`; drops it at once if it
  /// cancelled meanwhile (its own removal may have run before this add).
  func add(_ receiver: any TimerTickReceiver) {
    lock.withLock { receivers.append(receiver) }
    if receiver.isCancelled { remove(receiver) }
  }

  func remove(_ receiver: any TimerTickReceiver) {
    lock.withLock { receivers.removeAll { $0 === receiver } }
  }

  /// Returns the current timer, or stores and returns the one `makeTimer` builds.
  func connect(_ makeTimer: () -> Timer) -> (timer: Timer, isNew: Bool) {
    lock.withLock {
      if let timer { return (timer, false) }
      let newTimer = makeTimer()
      timer = newTimer
      return (newTimer, true)
    }
  }

  /// Forgets `connection` if it is the current timer and invalidates it.
  func disconnect(_ connection: Timer) {
    lock.withLock {
      if timer === connection { timer = nil }
    }
    connection.invalidate()
  }

  /// Sends the current date to every subscription, outside the lock.
  func tick() {
    let snapshot = lock.withLock { receivers }
    guard !snapshot.isEmpty else { return }
    let date = Date()
    for receiver in snapshot {
      receiver.receiveTick(date)
    }
  }
}

/// The handle `connect()` returns: cancelling it invalidates the timer.
internal final class TimerConnection: Cancellable {
  private let routing: TimerRouting
  private let timer: Timer

  init(routing: TimerRouting, timer: Timer) {
    self.routing = routing
    self.timer = timer
  }

  func cancel() {
    routing.disconnect(timer)
  }
}

/// The subscription a ``Foundation/Timer/TimerPublisher`` gives each subscriber. As Apple's,
/// it customizes neither its description, its mirror nor its playground description.
internal final class TimerSubscription<Downstream: Subscriber>: Subscription, TimerTickReceiver
where Downstream.Input == Date, Downstream.Failure == Never {
  private let lock = Lock()
  /// The subscriber until cancel (guarded by `lock`).
  private var downstream: Downstream?
  /// Values requested and not yet delivered (guarded by `lock`).
  private var demand = Subscribers.Demand.none
  private let routing: TimerRouting
  private let interval: TimeInterval
  private let tolerance: TimeInterval?

  init(downstream: Downstream, publisher: Timer.TimerPublisher, routing: TimerRouting) {
    self.downstream = downstream
    self.routing = routing
    self.interval = publisher.interval
    self.tolerance = publisher.tolerance
  }

  func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    lock.withLock {
      guard downstream != nil else { return }
      self.demand += demand
    }
  }

  func cancel() {
    // The subscriber leaves the lock before it is released: its deinit may run any code.
    let released: Downstream? = lock.withLock {
      defer { downstream = nil }
      return downstream
    }
    if released != nil { routing.remove(self) }
  }

  var isCancelled: Bool {
    lock.withLock { downstream == nil }
  }

  func receiveTick(_ date: Date) {
    let receiver: Downstream? = lock.withLock {
      guard let downstream, demand > 0 else { return nil }
      demand -= 1
      return downstream
    }
    guard let receiver else { return }
    let more = receiver.receive(date)
    guard more > 0 else { return }
    lock.withLock {
      if downstream != nil { demand += more }
    }
  }
}
