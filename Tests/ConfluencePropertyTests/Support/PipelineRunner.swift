import Confluence
import ConfluenceTesting

/// Runs one generated pipeline on one thread and reports every problem found: contract
/// violations (seen by `TestSubscriber` on every event), values or a completion that differ
/// from the ``PipelineModel``, and leaks (a subscription kept after completion or cancel,
/// or any value or closure alive once everything is dropped).
enum PipelineRunner {
  /// What one run saw, for the checks.
  private final class RunLog {
    var violations: [String] = []
    var valueCount = 0
    var cancelled = false
    weak var subscription: AnyObject?
  }

  static func problems(in pipeline: Pipeline) -> [String] {
    let context = PipelineContext()
    var problems = run(pipeline, context: context)
    // Everything the run made is dropped by now: what is still alive leaked.
    let live = context.tracker.liveCount
    if live != 0 {
      problems.append("leak: \(live) of \(context.tracker.madeCount) tracked values and closures still alive")
    }
    return problems
  }

  private static func run(_ pipeline: Pipeline, context: PipelineContext) -> [String] {
    let plan = pipeline.plan
    let log = RunLog()
    var problems: [String] = []
    var publisher: ItemPublisher? = PipelineBuilder(context: context).build(pipeline)
    var subscriber: TestSubscriber<Item, TestError>? = TestSubscriber(
      initialDemand: plan.initialDemand.map { Subscribers.Demand.max($0) } ?? .unlimited)
    guard let tester = subscriber else { return [] }
    tester.onViolation = { log.violations.append($0) }
    tester.onSubscription = { subscription in
      if type(of: subscription) is AnyClass { log.subscription = subscription as AnyObject }
    }
    tester.onValue = { [unowned tester] _ in
      log.valueCount += 1
      if log.valueCount == plan.cancelAtValue {
        log.cancelled = true
        tester.cancel()
        return .none
      }
      let demand = plan.perValue[(log.valueCount - 1) % plan.perValue.count]
      return demand == 0 ? .none : .max(demand)
    }

    publisher?.subscribe(tester)
    for step in plan.steps {
      if log.cancelled || tester.completion != nil { break }
      switch step {
      case .request(let k): tester.request(.max(k))
      case .advance(let ticks): context.scheduler.advance(by: VirtualTimeInterval(ticks))
      case .send(let subject, let count): context.send(subject: subject, count: count)
      case .cancel:
        // A subscriber can only cancel a subscription it has (`subscribe(on:)` delivers it
        // later, on the scheduler).
        guard tester.subscription != nil else { continue }
        log.cancelled = true
        tester.cancel()
      }
    }
    if !log.cancelled {
      // Let everything through: all the demand in the world, every scripted event, every
      // scheduled action (a subscription deferred by `subscribe(on:)` arrives here too).
      for _ in 0..<4 where tester.completion == nil && !log.cancelled {
        _ = context.scheduler.run()
        if tester.subscription != nil { tester.request(.unlimited) }
        context.finishSubjects()
      }
    }
    _ = context.scheduler.run()

    let values = tester.values.map(\.n)
    let completion = tester.completion.map { completion -> PipelineModel.End in
      switch completion {
      case .finished: return .finished
      case .failure(let error): return .failure(error.tag)
      }
    }
    let toleratesLateCompletion = pipeline.mayCompleteAfterCancel
    problems += log.violations
      .filter { !(toleratesLateCompletion && $0.hasPrefix("received completion") && $0.hasSuffix("after cancel")) }
      .map { "contract: \($0)" }
    if let model = PipelineModel.expected(for: pipeline) {
      if log.cancelled {
        if !model.allows(cancelledWith: values) {
          problems.append("values: got \(values) before the cancel; expected a prefix of \(model)")
        }
      } else {
        if !model.matches(values) || completion != model.end {
          problems.append(
            "values: got \(values) then \(completion.map(\.description) ?? "no completion"); expected \(model)")
        }
      }
    }

    if completion != nil || log.cancelled {
      // The publisher is still alive here: only the finished subscription must be gone.
      // The shared empty subscription lives for the whole process, by design.
      if let subscription = log.subscription, subscription !== (Subscriptions.empty as AnyObject) {
        problems.append(
          "leak: subscription \(subscription) still alive after \(log.cancelled ? "cancel" : "completion")")
      }
    } else {
      tester.cancel()
      _ = context.scheduler.run()
    }

    tester.onValue = nil
    tester.onSubscription = nil
    tester.onViolation = nil
    subscriber = nil
    publisher = nil
    context.releaseSubjects()
    _ = context.scheduler.run()
    return problems
  }

  /// The kind of a problem (`"contract: received completion"`, `"leak: subscription"`, …),
  /// so that shrinking keeps the same failure rather than drifting to another one.
  static func kind(of problem: String) -> String {
    problem.split(separator: " ").prefix(3).joined(separator: " ")
  }

  /// The smallest variant of a failing `pipeline` that still fails the same way, found greedily.
  static func shrink(_ pipeline: Pipeline, budget: Int = 300) -> (Pipeline, [String]) {
    var current = pipeline
    var currentProblems = problems(in: pipeline)
    guard let target = currentProblems.first.map(kind(of:)) else { return (pipeline, []) }
    var remaining = budget
    var improved = true
    while improved && remaining > 0 {
      improved = false
      for candidate in current.shrunk {
        remaining -= 1
        if remaining <= 0 { break }
        let found = problems(in: candidate)
        if found.contains(where: { kind(of: $0) == target }) {
          current = candidate
          currentProblems = found
          improved = true
          break
        }
      }
    }
    return (current, currentProblems)
  }
}
