import Dispatch
import Foundation
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension XCTestCase {
  /// Runs a race scenario: `build` makes a fresh iteration (objects, thread bodies, checks)
  /// as many times as `RaceConfiguration` asks, each run on `threads` pool threads started
  /// together, and every iteration's outcome is checked. Prints one line per scenario
  /// (`race-scenario: <test>: <title>: N iterations, F failed (kinds), T s`); a failure
  /// reports the first failing iteration in full — its seed, what was seen, and the
  /// subscribers' event logs — and how often each kind of failure occurred.
  ///
  /// - Parameters:
  ///   - title: What the scenario does, in a sentence.
  ///   - threads: How many threads its iterations use (at most 4).
  ///   - weight: Its share of `CONFLUENCE_RACE_ITERATIONS` (a slow scenario runs fewer).
  func race(
    _ title: String, threads: Int, weight: Double = 1, file: StaticString = #filePath, line: UInt = #line,
    _ build: (RaceIteration) -> Void
  ) {
    let configuration = RaceConfiguration.current
    let outcome = runRace(
      title, threads: threads, iterations: configuration.iterations(weight: weight),
      soakSeconds: configuration.soakSeconds,
      build)
    print("race-scenario: \(name): \(title): \(outcome.summary)")
    if let report = outcome.firstReport {
      XCTFail(
        "race scenario \"\(title)\" failed in \(outcome.failed) of \(outcome.ran) iterations: \(outcome.summary)\n\(report)",
        file: file, line: line)
    }
  }

  /// What running a scenario found.
  struct RaceOutcome {
    var ran = 0
    var failed = 0
    /// How many iterations broke each kind of promise.
    var kinds: [RaceViolation.Kind: Int] = [:]
    /// The first failing iteration: its seed, what was seen, the event logs.
    var firstReport: String?
    var seconds = 0.0

    var summary: String {
      let kindList = RaceViolation.Kind.allCases.compactMap { kind in kinds[kind].map { "\(kind.rawValue) \($0)" } }
      return "\(ran) iterations, \(failed) failed" + (kindList.isEmpty ? "" : " (\(kindList.joined(separator: ", ")))")
        + String(format: ", %.1f s", seconds)
    }
  }

  /// Runs a scenario `iterations` times (or for `soakSeconds`), stopping at a hang, and
  /// says what it found (`race` reports it; the harness's own tests inspect it).
  func runRace(
    _ title: String, threads: Int, iterations: Int, soakSeconds: Double? = nil, deadline: Double? = nil,
    _ build: (RaceIteration) -> Void
  ) -> RaceOutcome {
    let configuration = RaceConfiguration.current
    let deadline = deadline ?? configuration.deadline
    let pool = RaceThreadPool(threads: threads)
    defer { pool.shutDown() }
    let titleSeed = title.utf8.reduce(UInt64(0xCBF2_9CE4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    let started = DispatchTime.now()
    var outcome = RaceOutcome()
    var hung = false

    func elapsed() -> Double {
      Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
    }
    func shouldGoOn() -> Bool {
      if hung { return false }
      if let soakSeconds { return outcome.ran == 0 || elapsed() < soakSeconds }
      return outcome.ran < iterations
    }

    while shouldGoOn() {
      let iteration = RaceIteration(
        index: outcome.ran, seed: RaceRandom.mix(configuration.seed ^ titleSeed &+ UInt64(outcome.ran)))
      build(iteration)
      var violations = run(iteration, on: pool, deadline: deadline)
      iteration.releaseBodies()
      hung = violations.contains { $0.kind == .hang }
      if !hung {
        violations += iteration.checks.flatMap { $0() }
      }
      violations = iteration.recorders.flatMap(\.violations) + violations
      if !hung {
        iteration.cleanUp()
      }
      outcome.ran += 1
      guard !violations.isEmpty else { continue }
      outcome.failed += 1
      for kind in Set(violations.map(\.kind)) {
        outcome.kinds[kind, default: 0] += 1
      }
      if outcome.firstReport == nil {
        outcome.firstReport = report(iteration, violations, configuration)
      }
    }
    outcome.seconds = elapsed()
    return outcome
  }

  /// Runs the iteration's threads, then its phases; a hang is returned as a violation.
  private func run(_ iteration: RaceIteration, on pool: RaceThreadPool, deadline seconds: Double) -> [RaceViolation] {
    let stuck = pool.run(iteration.threads, seed: iteration.seed, deadline: .now() + seconds)
    if !stuck.isEmpty {
      return [hang(stuck, of: pool, seconds, while: "the scenario's threads ran")]
    }
    for phase in iteration.phases {
      switch phase {
      case .thread(let body):
        let stuck = pool.run([body], seed: iteration.seed ^ 0xF00D, deadline: .now() + seconds)
        if !stuck.isEmpty {
          return [hang(stuck, of: pool, seconds, while: "a step after the threads returned ran")]
        }
      case .wait(let what, let condition):
        let limit = DispatchTime.now() + seconds
        while !condition() {
          if DispatchTime.now() > limit {
            return [RaceViolation(.hang, "hang: \(what) did not happen within \(Int(seconds)) s")]
          }
          usleep(50)
        }
      }
    }
    return []
  }

  private func hang(_ stuck: [Int], of pool: RaceThreadPool, _ seconds: Double, while what: String) -> RaceViolation {
    let threads = stuck.map { "thread \($0) (after \(pool.actors[$0].steps.load(ordering: .relaxed)) steps)" }
    return RaceViolation(
      .hang, "hang: \(threads.joined(separator: ", ")) did not return within \(Int(seconds)) s while \(what)")
  }

  private func report(
    _ iteration: RaceIteration, _ violations: [RaceViolation], _ configuration: RaceConfiguration
  ) -> String {
    var lines = [
      "first failure: iteration \(iteration.index) (iteration seed 0x\(String(iteration.seed, radix: 16))); "
        + "CONFLUENCE_RACE_SEED=0x\(String(configuration.seed, radix: 16)) replays this run's random choices "
        + "(the scheduler's are its own)",
      "what was seen:",
    ]
    lines += violations.prefix(12).map { "  - \($0.message)" }
    if violations.count > 12 { lines.append("  - … and \(violations.count - 12) more") }
    lines += iteration.notes.map { "  " + $0() }
    lines.append("events (value@thread that delivered it):")
    lines += iteration.recorders.map { "  " + $0.logDescription }
    return lines.joined(separator: "\n")
  }
}
