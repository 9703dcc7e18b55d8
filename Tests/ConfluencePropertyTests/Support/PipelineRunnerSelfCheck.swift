import Confluence
import ConfluenceTesting

/// Publishers that break the contract on purpose, to show that the checks the generated
/// pipelines rely on do fail when they should.
enum PipelineRunnerSelfCheck {
  /// Sends three values on subscription, whatever the demand.
  private struct IgnoresDemand: Publisher {
    typealias Output = Int
    typealias Failure = Never

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
      subscriber.receive(subscription: Subscriptions.empty)
      for value in 1...3 { _ = subscriber.receive(value) }
      subscriber.receive(completion: .finished)
    }
  }

  static func problemsOfAPublisherThatIgnoresDemand() -> [String] {
    var problems: [String] = []
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
    subscriber.onViolation = { problems.append($0) }
    IgnoresDemand().subscribe(subscriber)
    return problems
  }
}
