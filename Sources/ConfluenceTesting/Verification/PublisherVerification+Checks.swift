import Confluence
import Foundation

// Each rule's scenario. A check reports only the breaches of its own rule, so that a
// publisher that breaks one rule fails that rule's check and no other.
extension PublisherVerification {
  /// The problems seen, the first five of them and how many more.
  private func outcome(_ problems: [String]) -> ContractCheckResult.Outcome {
    if problems.isEmpty { return .passed }
    if problems.count <= 5 { return .failed(problems) }
    return .failed(Array(problems.prefix(5)) + ["… and \(problems.count - 5) more"])
  }

  /// Subscribes `probe` to a fresh fixture of `count` values and lets the subscription
  /// arrive (a publisher may subscribe on a scheduler).
  private func subscribe(_ count: Int, _ probe: Probe) -> VerificationFixture<Specimen> {
    let fixture = fixture(count)
    fixture.publisher.subscribe(probe)
    fixture.settle()
    return fixture
  }

  /// Subscribes `probe` to a fresh fixture of `count` values, starts it and lets it settle.
  private func run(_ count: Int, _ probe: Probe) -> VerificationFixture<Specimen> {
    let fixture = subscribe(count, probe)
    fixture.start()
    fixture.settle()
    return fixture
  }

  /// Ends a scenario: cancels what is still live and lets the fixture deliver the cancel.
  private func finish(_ probe: Probe, _ fixture: VerificationFixture<Specimen>) {
    probe.cancel()
    fixture.settle()
    probe.letGo()
  }

  func checkSubscriptionFirst() -> ContractCheckResult.Outcome {
    let count = self.count(preferred: 2, minimum: 0) ?? valueCounts.lowerBound
    var problems: [String] = []
    for demand in [Subscribers.Demand.unlimited, .none] {
      let probe = Probe(initialDemand: demand)
      let fixture = run(count, probe)
      if probe.subscriptionCount == 0 {
        problems.append("no receive(subscription:) arrived (initial demand \(demand))")
      }
      problems += probe.breaches([.subscription])
      finish(probe, fixture)
    }
    return outcome(problems)
  }

  func checkNeverMoreThanDemanded() -> ContractCheckResult.Outcome {
    guard let count = count(preferred: 5, minimum: 2) else { return skipped(needing: 2) }
    var problems: [String] = []
    let limited = Probe(initialDemand: .max(1))
    let fixture = run(count, limited)
    limited.request(.max(2))
    fixture.settle()
    problems += limited.breaches([.beyondDemand]).map { "with .max(1) then .max(2) requested: \($0)" }
    finish(limited, fixture)

    let none = Probe(initialDemand: .none)
    let second = run(count, none)
    problems += none.breaches([.beyondDemand]).map { "with nothing requested: \($0)" }
    finish(none, second)
    return outcome(problems)
  }

  func checkDemandAccumulates() -> ContractCheckResult.Outcome {
    guard let count = count(preferred: 5, minimum: 3) else { return skipped(needing: 3) }
    var problems: [String] = []
    // Two requests of one each, made before the publisher starts.
    let requested = Probe(initialDemand: .none)
    let fixture = subscribe(count, requested)
    requested.request(.max(1))
    requested.request(.max(1))
    fixture.start()
    fixture.settle()
    if requested.values != 2 {
      problems.append(
        "request(.max(1)) twice of a publisher of \(count) values delivered \(requested.values) values, not 2")
    }
    finish(requested, fixture)

    // One requested at first, one more returned from receive(_:) for the first value.
    let returned = Probe(initialDemand: .max(1)) { number, _ in number == 1 ? .max(1) : .none }
    let second = run(count, returned)
    if returned.values != 2 {
      problems.append(
        ".max(1) requested and .max(1) returned from receive(_:) delivered \(returned.values) of \(count) values, not 2"
      )
    }
    finish(returned, second)
    return outcome(problems)
  }

  func checkDemandSaturates() -> ContractCheckResult.Outcome {
    guard let count = count(preferred: 3, minimum: 1) else { return skipped(needing: 1) }
    var problems: [String] = []
    // .max(1), then from inside the first receive(_:) a request of .max(Int.max) and .max(1)
    // returned: the sum passes Int.max. Every later value returns .max(1) more.
    let pastIntMax = Probe(initialDemand: .max(1)) { number, probe in
      if number == 1 { probe.request(.max(Int.max)) }
      return .max(1)
    }
    let first = run(count, pastIntMax)
    if pastIntMax.values != count || pastIntMax.completionCount != 1 {
      problems.append(
        "request(.max(Int.max)) on top of .max(1) returned delivered \(pastIntMax.values) of \(count) values and \(pastIntMax.completionCount) completions, not all and one"
      )
    }
    finish(pastIntMax, first)

    // .unlimited, then .max(1) more requested and returned for every value.
    let unlimited = Probe(initialDemand: .none) { _, _ in .max(1) }
    let second = subscribe(count, unlimited)
    unlimited.request(.unlimited)
    unlimited.request(.max(1))
    second.start()
    second.settle()
    if unlimited.values != count || unlimited.completionCount != 1 {
      problems.append(
        "request(.unlimited) then request(.max(1)) delivered \(unlimited.values) of \(count) values and \(unlimited.completionCount) completions, not all and one"
      )
    }
    finish(unlimited, second)
    return outcome(problems)
  }

  func checkAtMostOneCompletion() -> ContractCheckResult.Outcome {
    let count = self.count(preferred: 2, minimum: 0) ?? valueCounts.lowerBound
    let probe = Probe(initialDemand: .unlimited)
    let fixture = run(count, probe)
    probe.lastSubscription?.request(.max(1))
    fixture.settle()
    var problems = probe.breaches([.secondCompletion])
    if probe.completionCount == 0 {
      problems.append("no completion arrived after \(probe.values) of \(count) values (the factory promises one)")
    }
    finish(probe, fixture)
    return outcome(problems)
  }

  func checkNothingAfterCompletion() -> ContractCheckResult.Outcome {
    let count = self.count(preferred: 2, minimum: 0) ?? valueCounts.lowerBound
    let probe = Probe(initialDemand: .unlimited)
    let fixture = run(count, probe)
    probe.lastSubscription?.request(.max(3))
    fixture.start()
    fixture.settle()
    let problems = probe.breaches([.afterCompletion])
    finish(probe, fixture)
    return outcome(problems)
  }

  func checkNothingAfterCancel() -> ContractCheckResult.Outcome {
    guard let count = count(preferred: 3, minimum: 2) else { return skipped(needing: 2) }
    var problems: [String] = []
    // Cancelled after the first value, then asked for more through the old subscription.
    let probe = Probe(initialDemand: .max(1))
    let first = run(count, probe)
    probe.cancel()
    first.settle()
    probe.lastSubscription?.request(.max(5))
    first.start()
    first.settle()
    problems += probe.breaches([.afterCancel]).map { "cancelled after value 1: \($0)" }
    probe.letGo()

    // Cancelled before anything was requested or sent.
    let early = Probe(initialDemand: .none)
    let second = subscribe(count, early)
    early.cancel()
    second.start()
    second.settle()
    early.lastSubscription?.request(.max(2))
    second.settle()
    problems += early.breaches([.afterCancel]).map { "cancelled before any request: \($0)" }
    early.letGo()
    return outcome(problems)
  }

  func checkCancelIsIdempotent() -> ContractCheckResult.Outcome {
    guard let count = count(preferred: 2, minimum: 1) else { return skipped(needing: 1) }
    let probe = Probe(initialDemand: .none)
    let fixture = subscribe(count, probe)
    let subscription = probe.lastSubscription
    probe.cancel()
    subscription?.cancel()
    subscription?.request(.max(1))
    subscription?.cancel()
    fixture.start()
    fixture.settle()
    let problems = probe.breaches([.afterCancel]).map { "after cancel(), cancel(), request(.max(1)), cancel(): \($0)" }
    probe.letGo()
    return outcome(problems)
  }

  func checkCancelInsideReceive() -> ContractCheckResult.Outcome {
    guard let count = count(preferred: 3, minimum: 2) else { return skipped(needing: 2) }
    let probe = Probe(initialDemand: .unlimited) { number, probe in
      if number == 1 { probe.cancel() }
      return .none
    }
    let fixture = run(count, probe)
    var problems = probe.breaches([.afterCancel])
    if problems.isEmpty && probe.values != 1 {
      problems.append("\(probe.values) values arrived although the first one cancelled")
    }
    probe.letGo()
    withExtendedLifetime(fixture) {}
    return outcome(problems)
  }

  func checkReentrantRequest() -> ContractCheckResult.Outcome {
    guard let count = count(preferred: 5, minimum: 2) else { return skipped(needing: 2) }
    let probe = Probe(initialDemand: .max(1)) { _, probe in
      probe.request(.max(1))
      return .none
    }
    let fixture = run(count, probe)
    var problems = probe.breaches([.overlap]).map { "receive(_:) re-entered: \($0)" }
    if probe.values != count || probe.completionCount != 1 {
      problems.append(
        "a request(.max(1)) from inside each receive(_:) delivered \(probe.values) of \(count) values and \(probe.completionCount) completions, not all and one"
      )
    }
    finish(probe, fixture)
    return outcome(problems)
  }

  func checkRequestsFromOtherThreads() -> ContractCheckResult.Outcome {
    guard let count = count(preferred: 40, minimum: 1) else { return skipped(needing: 1) }
    let kinds: Set<Breach.Kind> = [.overlap, .beyondDemand, .secondCompletion, .afterCompletion, .subscription]
    var problems: [String] = []
    for cancelling in [false, true] {
      let probe = Probe(initialDemand: .none, strictCancellation: false, holdMicroseconds: 50)
      let fixture = subscribe(count, probe)
      // Four threads wait at a gate, then request one value at a time, all at once.
      let gate = DispatchSemaphore(value: 0)
      let done = DispatchGroup()
      for thread in 0..<4 {
        done.enter()
        Thread.detachNewThread {
          gate.wait()
          for request in 0..<count {
            probe.request(.max(1))
            if cancelling && thread == 0 && request == count / 2 { probe.cancel() }
          }
          done.leave()
        }
      }
      for _ in 0..<4 { gate.signal() }
      fixture.start()
      done.wait()
      fixture.settle()
      let label = cancelling ? "requests from four threads, one cancelling" : "requests from four threads"
      problems += probe.breaches(kinds).map { "\(label): \($0)" }
      if cancelling {
        // Every thread has returned: nothing may arrive any more.
        let seen = (probe.values, probe.completionCount)
        probe.lastSubscription?.request(.max(5))
        fixture.settle()
        if (probe.values, probe.completionCount) != seen {
          problems.append("\(label): events arrived after cancel() had returned and every thread had finished")
        }
      }
      finish(probe, fixture)
    }
    return outcome(problems)
  }

  func checkReleasesSubscriber(cancelling: Bool) -> ContractCheckResult.Outcome {
    let count = self.count(preferred: 2, minimum: 0) ?? valueCounts.lowerBound
    let fixture = fixture(count)
    weak var released: Probe?
    var completed = false
    do {
      let probe = Probe(initialDemand: cancelling ? .none : .unlimited)
      released = probe
      fixture.publisher.subscribe(probe)
      fixture.settle()
      if cancelling {
        probe.cancel()
      }
      fixture.start()
      fixture.settle()
      completed = probe.completionCount > 0
      probe.letGo()
    }
    fixture.settle()
    let kept = released != nil
    withExtendedLifetime(fixture) {}
    if !cancelling && !completed {
      return .failed(["no completion arrived (the factory promises one), so the release could not be checked"])
    }
    if kept {
      return .failed([
        "the subscriber is still alive after \(cancelling ? "cancel()" : "the completion"), held by the publisher or its subscription"
      ])
    }
    return .passed
  }

  func checkRequestNone() -> ContractCheckResult.Outcome {
    if requestNone == .traps {
      return .skipped("it traps on request(.none) as API misuse; a trap can only be checked in a child process")
    }
    guard let count = count(preferred: 2, minimum: 2) else { return skipped(needing: 2) }
    let probe = Probe(initialDemand: .none)
    let fixture = subscribe(count, probe)
    probe.request(.none)
    fixture.settle()
    var problems: [String] = []
    if probe.values != 0 { problems.append("request(.none) delivered \(probe.values) values") }
    probe.request(.max(1))
    fixture.start()
    fixture.settle()
    if problems.isEmpty && probe.values != 1 {
      problems.append("request(.none) then request(.max(1)) delivered \(probe.values) of \(count) values, not 1")
    }
    finish(probe, fixture)
    return outcome(problems)
  }
}
