import Confluence
import Synchronization

/// One subscriber's view of a scenario: every event it received, in order, with the thread
/// that delivered it, and the promises it saw broken as they happened — two events inside
/// it at once (an atomic in-flight marker), a second completion, a value after the
/// completion. Fed by a `RaceSubscriber`, or by a sink's closures (`RaceRecorder.sink`).
///
/// Random pauses inside each delivery (from `SharedRaceRandom`) keep deliveries running
/// long enough for other threads to arrive in the middle of them.
final class RaceRecorder: Sendable {
  /// The subscriber's name in the reports: `A`, `B`, …
  let name: String
  private let log = RaceLocked<[RaceEvent]>([])
  private let seen = RaceLocked<[RaceViolation]>([])
  /// The event being delivered now, as `RaceTag.packed` for a value, -1 for a completion,
  /// -2 for the subscription; 0 when none.
  private let inFlight = Atomic<Int>(0)
  private let cancelReturned = Atomic<Bool>(false)
  private let completed = Atomic<Bool>(false)
  private let receivedValues = Atomic<Int>(0)
  /// Whether the values say nothing (`receivedSignal()`), for the report.
  private let recordsSignals = Atomic<Bool>(false)
  private let random: SharedRaceRandom

  init(name: String, seed: UInt64, pausePercent: Int, pauseRounds: Int = 1) {
    self.name = name
    random = SharedRaceRandom(seed: seed, percent: pausePercent, rounds: pauseRounds)
  }

  // MARK: Events

  func receivedSubscription() {
    let marker = begin(-2, "its subscription")
    append(.subscription, afterCancel: false)
    random.pause()
    end(marker)
  }

  /// A value; `then` runs inside the delivery, after the value was recorded (a subscriber
  /// that sends from inside `receive(_:)`).
  func received(_ tag: RaceTag, then: ((RaceTag) -> Void)? = nil) {
    let afterCancel = cancelReturned.load(ordering: .sequentiallyConsistent)
    let marker = begin(tag.packed, tag.short)
    if completed.load(ordering: .sequentiallyConsistent) {
      report(.afterCompletion, "subscriber \(name) received \(tag) after its completion")
    }
    append(.value(tag), afterCancel: afterCancel)
    receivedValues.add(1, ordering: .sequentiallyConsistent)
    random.pause()
    then?(tag)
    end(marker)
  }

  /// A value that says nothing (`Void`): recorded as the value the delivering thread is
  /// sending (`RaceActor.sending`), or the initial value if no scenario thread is sending.
  func receivedSignal() {
    recordsSignals.store(true, ordering: .relaxed)
    let packed = RaceActor.current?.sending.load(ordering: .relaxed) ?? 0
    received(RaceTag(packed: packed) ?? .initial)
  }

  func received(completion: String) {
    let afterCancel = cancelReturned.load(ordering: .sequentiallyConsistent)
    let marker = begin(-1, completion)
    if completed.exchange(true, ordering: .sequentiallyConsistent) {
      report(.completion, "subscriber \(name) received a second completion (\(completion))")
    }
    append(.completion(completion), afterCancel: afterCancel)
    random.pause()
    end(marker)
  }

  func received<Failure>(_ completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished: received(completion: "finished")
    case .failure(let error): received(completion: "failure(\(error))")
    }
  }

  /// Call right after `cancel()` returned: any event that starts from now on is late.
  func noteCancelReturned() {
    cancelReturned.store(true, ordering: .sequentiallyConsistent)
    append(.cancelReturned, afterCancel: false)
  }

  func noteRequested(_ demand: Subscribers.Demand) {
    append(.requested(demand == .unlimited ? "unlimited" : "\(demand.max ?? 0)"), afterCancel: false)
  }

  /// Records a broken promise found while it happened.
  func report(_ kind: RaceViolation.Kind, _ message: String) {
    seen.withLock { $0.append(RaceViolation(kind, message)) }
  }

  // MARK: What was seen

  var events: [RaceEvent] { log.withLock { $0 } }

  /// The values received, in order.
  var values: [RaceTag] { events.compactMap(\.value) }

  /// How many values have been received so far (no copy of the log).
  var valueCount: Int { receivedValues.load(ordering: .sequentiallyConsistent) }

  var completions: [String] {
    events.compactMap {
      if case .completion(let completion) = $0.kind { return completion }
      return nil
    }
  }

  var violations: [RaceViolation] { seen.withLock { $0 } }

  /// The event log as the reports show it (the middle left out when it is long).
  var logDescription: String {
    let all = events.map(\.description)
    let shown = all.count <= 120 ? all : Array(all.prefix(60)) + ["… \(all.count - 120) more …"] + all.suffix(60)
    let signals =
      recordsSignals.load(ordering: .relaxed)
      ? "(values that say nothing, each named after what the thread delivering it was sending: "
        + "one delivered by another sending thread shows as one lost and one twice) " : ""
    return "subscriber \(name): " + signals + shown.joined(separator: " ")
  }

  // MARK: In flight

  private func begin(_ marker: Int, _ what: String) -> Int {
    let running = inFlight.exchange(marker, ordering: .sequentiallyConsistent)
    if running != 0 {
      let other: String
      switch running {
      case -1: other = "its completion"
      case -2: other = "its subscription"
      default: other = RaceTag(packed: running).map(\.short) ?? "?"
      }
      report(
        .overlapping,
        "subscriber \(name): \(what) began on \(RaceActor.currentThreadName) while \(other) was still being delivered"
      )
    }
    return marker
  }

  private func end(_ marker: Int) {
    _ = inFlight.compareExchange(expected: marker, desired: 0, ordering: .sequentiallyConsistent)
  }

  private func append(_ kind: RaceEvent.Kind, afterCancel: Bool) {
    let event = RaceEvent(
      kind: kind, thread: RaceActor.currentThreadName, threadIndex: RaceActor.currentIndex, afterCancel: afterCancel)
    log.withLock { $0.append(event) }
  }
}
