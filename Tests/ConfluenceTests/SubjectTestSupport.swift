import Confluence

/// A subscription for subject tests that records what it is asked.
final class SubjectTestsRecordingSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
  // @unchecked Sendable: the tests that use it stay on one thread.
  private(set) var requests: [Subscribers.Demand] = []
  private(set) var cancels = 0

  func request(_ demand: Subscribers.Demand) { requests.append(demand) }
  func cancel() { cancels += 1 }
  var description: String { "Recording" }
}

/// A publisher for subject tests: each subscriber receives a
/// ``SubjectTestsRecordingSubscription``; the test then drives the subscriber directly.
final class SubjectTestsUpstream<Output, Failure: Error>: Publisher {
  let subscription = SubjectTestsRecordingSubscription()
  private(set) var send: ((Output) -> Subscribers.Demand)?
  private(set) var complete: ((Subscribers.Completion<Failure>) -> Void)?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    send = subscriber.receive(_:)
    complete = subscriber.receive(completion:)
    subscriber.receive(subscription: subscription)
  }

  /// Forgets the subscriber, as a publisher does after completion or cancel.
  func detach() {
    send = nil
    complete = nil
  }
}
