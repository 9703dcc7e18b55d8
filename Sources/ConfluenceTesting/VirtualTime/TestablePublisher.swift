import Confluence

/// A publisher that sends scripted values and a completion at set virtual times.
///
/// Make one from a ``TestScheduler`` over ``VirtualTime``:
/// ``TestScheduler/createRelativeTestablePublisher(_:)`` times its events from the moment
/// each subscriber subscribes (a cold publisher: every subscriber sees the whole script);
/// ``TestScheduler/createAbsoluteTestablePublisher(_:)`` times them on the scheduler's
/// clock (a hot publisher: a late subscriber misses the events already past).
///
/// ```swift
/// let testScheduler = TestScheduler(initialClock: 0)
/// let testablePublisher: TestablePublisher<String, Never> = testScheduler.createRelativeTestablePublisher([
///   (100, .input("a")),
///   (200, .input("b")),
///   (300, .completion(.finished)),
/// ])
/// ```
///
/// Back-pressure: like a subject, it honours demand by dropping a value that finds no
/// outstanding demand; completions are always sent. ``Signal/subscription`` entries in the
/// script are ignored. Cancelling a subscription removes its remaining events from the
/// scheduler.
public struct TestablePublisher<Output, Failure: Error>: Publisher {
  /// The script, in virtual time.
  public let events: TestSequence<Output, Failure>

  /// Whether event times count from each subscription (`true`) or from the clock's origin.
  public let isRelative: Bool

  internal let now: () -> VirtualTime
  internal let scheduleAt: (VirtualTime, @escaping () -> Void) -> AnyCancellable

  internal init(
    events: TestSequence<Output, Failure>, isRelative: Bool, now: @escaping () -> VirtualTime,
    scheduleAt: @escaping (VirtualTime, @escaping () -> Void) -> AnyCancellable
  ) {
    self.events = events
    self.isRelative = isRelative
    self.now = now
    self.scheduleAt = scheduleAt
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let subscription = TestablePublisherSubscription(downstream: subscriber)
    subscriber.receive(subscription: subscription)
    let start = now()
    var tokens: [AnyCancellable] = []
    for (time, signal) in events.elements {
      let due: VirtualTime
      if isRelative {
        due = start.advanced(by: VirtualTimeInterval(time.ticks))
      } else {
        guard time >= start else { continue }
        due = time
      }
      switch signal {
      case .subscription:
        continue
      case .input(let value):
        tokens.append(scheduleAt(due) { [weak subscription] in subscription?.send(value) })
      case .completion(let completion):
        tokens.append(scheduleAt(due) { [weak subscription] in subscription?.complete(completion) })
      }
    }
    subscription.hold(tokens)
  }
}

/// One subscriber's view of a ``TestablePublisher``: its demand and its pending events.
private final class TestablePublisherSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
  @unchecked Sendable
{
  // @unchecked Sendable: `downstream`, `demand` and `tokens` are touched only under `lock`;
  // downstream is called after the lock is released.
  private let lock = Lock()
  private var downstream: Downstream?
  private var demand = Subscribers.Demand.none
  private var tokens: [AnyCancellable] = []
  private var isTerminated = false

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  var description: String { "TestablePublisher" }

  /// Keeps the scheduled events, so cancel can take them off the scheduler.
  func hold(_ scheduled: [AnyCancellable]) {
    let keep = lock.withLock { () -> Bool in
      guard !isTerminated else { return false }
      tokens = scheduled
      return true
    }
    if !keep { scheduled.forEach { $0.cancel() } }
  }

  func send(_ value: Downstream.Input) {
    let target = lock.withLock { () -> Downstream? in
      guard let downstream, demand > 0 else { return nil }
      demand -= 1
      return downstream
    }
    guard let target else { return }
    let more = target.receive(value)
    if more > 0 { lock.withLock { demand += more } }
  }

  func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
    let (target, pending) = terminate()
    pending.forEach { $0.cancel() }
    target?.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    confluencePrecondition(
      demand > 0, "API violation: request(_:) was called with demand .none; request at least .max(1)")
    lock.withLock { self.demand += demand }
  }

  func cancel() {
    let (_, pending) = terminate()
    pending.forEach { $0.cancel() }
  }

  private func terminate() -> (Downstream?, [AnyCancellable]) {
    lock.withLock {
      defer {
        downstream = nil
        tokens = []
        isTerminated = true
      }
      return (downstream, tokens)
    }
  }
}
