import Confluence
import Synchronization

/// A subscriber that records into a `RaceRecorder` and checks demand: it never accepts more
/// values than it has asked for (initial demand, demand returned from `receive(_:)`, and
/// `request(_:)` from any thread, each counted before it is asked for), and its `cancel()`
/// notes when it returned, so that a value that starts later is seen.
///
/// Sendable: all its state is in atomics and a lock.
final class RaceSubscriber<Failure: Error>: Subscriber, Cancellable, Sendable {
  typealias Input = RaceTag

  let recorder: RaceRecorder
  private let initialDemand: Subscribers.Demand
  private let demandPerValue: Subscribers.Demand
  private let subscription = RaceLocked<RaceShared<Subscription>?>(nil)
  /// Demand asked for so far (`Int.max`: unlimited).
  private let granted = Atomic<Int>(0)
  private let receivedCount = Atomic<Int>(0)

  /// Called inside `receive(_:)`, after the value was recorded (to send from there).
  private let onValue: (@Sendable (RaceTag) -> Void)?

  init(
    _ recorder: RaceRecorder, demand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none,
    onValue: (@Sendable (RaceTag) -> Void)? = nil
  ) {
    self.recorder = recorder
    initialDemand = demand
    self.demandPerValue = demandPerValue
    self.onValue = onValue
  }

  func receive(subscription: Subscription) {
    let shared = RaceShared(subscription)
    self.subscription.withLock { $0 = shared }
    recorder.receivedSubscription()
    if initialDemand != .none {
      grant(initialDemand)
      subscription.request(initialDemand)
    }
  }

  func receive(_ input: RaceTag) -> Subscribers.Demand {
    let count = receivedCount.add(1, ordering: .sequentiallyConsistent).newValue
    let asked = granted.load(ordering: .sequentiallyConsistent)
    if count > asked {
      recorder.report(
        .overDemand,
        "subscriber \(recorder.name) received \(input) as its value number \(count) with only \(asked) requested")
    }
    recorder.received(input, then: onValue)
    if demandPerValue != .none {
      grant(demandPerValue)
    }
    return demandPerValue
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    recorder.received(completion)
  }

  /// Asks for `demand` more, from any thread.
  func request(_ demand: Subscribers.Demand) {
    grant(demand)
    recorder.noteRequested(demand)
    subscription.withLock { $0 }?.value.request(demand)
  }

  /// Cancels the subscription (and lets go of it), then notes that `cancel()` returned.
  func cancel() {
    let taken = subscription.withLock { held -> RaceShared<Subscription>? in
      defer { held = nil }
      return held
    }
    taken?.value.cancel()
    recorder.noteCancelReturned()
  }

  /// Demand asked for and not used yet (`Int.max` once unlimited).
  var outstandingDemand: Int {
    let asked = granted.load(ordering: .sequentiallyConsistent)
    return asked == Int.max ? Int.max : asked - receivedCount.load(ordering: .sequentiallyConsistent)
  }

  var hasSubscription: Bool { subscription.withLock { $0 != nil } }

  private func grant(_ demand: Subscribers.Demand) {
    guard let more = demand.max else {
      granted.store(Int.max, ordering: .sequentiallyConsistent)
      return
    }
    var current = granted.load(ordering: .sequentiallyConsistent)
    while current != Int.max {
      let (exchanged, original) = granted.compareExchange(
        expected: current, desired: current + more, ordering: .sequentiallyConsistent)
      if exchanged { return }
      current = original
    }
  }
}

/// What a sink's closures capture, so a test can see when the sink lets go of them.
final class RaceProbe: Sendable {}

/// A weak reference to a `RaceProbe` (or any object), read after the threads returned.
final class RaceWeak: @unchecked Sendable {
  // Written once, in `init`; read by the test thread after the scenario's threads returned.
  weak var object: AnyObject?

  init(_ object: AnyObject) {
    self.object = object
  }
}

/// A sink that records into a `RaceRecorder`, with a probe its closures alone keep alive.
final class RaceSink: Sendable {
  let recorder: RaceRecorder
  let cancellable: AnyCancellable
  /// What the closures capture; `nil` once the sink let go of them.
  let closures: RaceWeak

  init<P: Publisher>(_ publisher: P, into recorder: RaceRecorder) where P.Output == RaceTag {
    self.recorder = recorder
    let probe = RaceProbe()
    closures = RaceWeak(probe)
    cancellable = publisher.sink(
      receiveCompletion: { [probe] completion in
        withExtendedLifetime(probe) { recorder.received(completion) }
      },
      receiveValue: { [probe] value in
        withExtendedLifetime(probe) { recorder.received(value) }
      })
  }

  /// A sink on a publisher whose values say nothing: each is recorded as the value the
  /// delivering thread is sending (`RaceRecorder.receivedSignal()`).
  init<P: Publisher>(signals publisher: P, into recorder: RaceRecorder) where P.Output == Void {
    self.recorder = recorder
    let probe = RaceProbe()
    closures = RaceWeak(probe)
    cancellable = publisher.sink(
      receiveCompletion: { [probe] completion in
        withExtendedLifetime(probe) { recorder.received(completion) }
      },
      receiveValue: { [probe] _ in
        withExtendedLifetime(probe) { recorder.receivedSignal() }
      })
  }

  /// Cancels, then notes that `cancel()` returned.
  func cancel() {
    cancellable.cancel()
    recorder.noteCancelReturned()
  }
}
