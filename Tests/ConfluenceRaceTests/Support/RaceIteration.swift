import Confluence
import Dispatch

/// One run of a scenario: the objects it builds, the bodies of its threads, what happens
/// after they returned, and the checks. A scenario's `build` closure fills one in for every
/// iteration, on the test's thread.
///
/// `@unchecked Sendable`: used on the test's thread only; the bodies it collects are
/// `@Sendable` and run on the pool's threads.
final class RaceIteration: @unchecked Sendable {
  /// After the threads returned: a body run on one pool thread (under the same deadline as
  /// the threads), or a condition to wait for (async deliveries).
  enum Phase {
    case thread(@Sendable (RaceActor) -> Void)
    case wait(String, () -> Bool)
  }

  let index: Int
  let seed: UInt64
  /// Random choices for building the iteration.
  var random: RaceRandom

  private(set) var threads: [@Sendable (RaceActor) -> Void] = []
  private(set) var phases: [Phase] = []
  private(set) var checks: [() -> [RaceViolation]] = []
  private(set) var recorders: [RaceRecorder] = []
  private(set) var notes: [() -> String] = []
  private var cleanups: [() -> Void] = []

  init(index: Int, seed: UInt64) {
    self.index = index
    self.seed = seed
    random = RaceRandom(seed: seed)
  }

  // MARK: Building

  /// A recorder named `name` whose deliveries pause now and then (`pauses` percent of them,
  /// each pause `rounds` random pauses long).
  func recorder(_ name: String, pauses: Int = 30, rounds: Int = 1) -> RaceRecorder {
    let recorder = RaceRecorder(
      name: name, seed: RaceRandom.mix(seed ^ UInt64(recorders.count + 1) &* 0xA24B_AED4_963E_E407),
      pausePercent: pauses, pauseRounds: rounds)
    recorders.append(recorder)
    return recorder
  }

  /// A checking subscriber named `name` (see `RaceSubscriber`).
  func subscriber<Failure: Error>(
    _ name: String, failing: Failure.Type = Never.self, demand: Subscribers.Demand = .unlimited,
    demandPerValue: Subscribers.Demand = .none, pauses: Int = 30, onValue: (@Sendable (RaceTag) -> Void)? = nil
  ) -> RaceSubscriber<Failure> {
    let subscriber = RaceSubscriber<Failure>(
      recorder(name, pauses: pauses), demand: demand, demandPerValue: demandPerValue, onValue: onValue)
    // A subscriber keeps its subscription and the subscription its subscriber until one of
    // them ends it (as with Apple's subjects): cancelled once the checks ran, unless the
    // library let go of it already (held weakly, not to hide a subscriber kept too long).
    cleanups.append { [weak subscriber] in subscriber?.cancel() }
    return subscriber
  }

  /// A sink on `publisher` that records into a recorder named `name`.
  func sink<P: Publisher>(_ name: String, on publisher: P, pauses: Int = 30, rounds: Int = 1) -> RaceSink
  where P.Output == RaceTag {
    RaceSink(publisher, into: recorder(name, pauses: pauses, rounds: rounds))
  }

  /// A scenario thread; all of them start together.
  func thread(_ body: @escaping @Sendable (RaceActor) -> Void) {
    threads.append(body)
  }

  /// Runs `body` on one pool thread once every scenario thread returned.
  func then(_ body: @escaping @Sendable (RaceActor) -> Void) {
    phases.append(.thread(body))
  }

  /// Waits (on the test's thread) until `condition` holds; past the deadline it is a hang,
  /// reported as `what` did not happen.
  func waitUntil(_ what: String, _ condition: @escaping () -> Bool) {
    phases.append(.wait(what, condition))
  }

  /// A check, run after everything else.
  func check(_ body: @escaping () -> [RaceViolation]) {
    checks.append(body)
  }

  /// A line for the failure report (a count the checks used, for instance).
  func note(_ body: @escaping () -> String) {
    notes.append(body)
  }

  /// Cancels what is still subscribed (after the checks).
  func cleanUp() {
    for cleanup in cleanups {
      cleanup()
    }
    cleanups = []
  }

  /// Lets go of the thread bodies and phases (and what they captured) once they ran, so
  /// that the lifetime checks see only what the library keeps.
  func releaseBodies() {
    threads = []
    phases = []
  }
}
