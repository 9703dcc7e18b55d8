import Confluence
import ConfluenceTesting

// Helpers shared by PrintTests, HandleEventsTests, BreakpointTests and DescriptionTests.

/// A `TextOutputStream` that records every `write` call.
final class LineCollector: TextOutputStream {
  /// Every string passed to `write`, in order.
  private(set) var writes: [String] = []

  /// Called after each write is recorded (for re-entrancy tests).
  var onWrite: ((String) -> Void)?

  func write(_ string: String) {
    writes.append(string)
    onWrite?(string)
  }

  /// The written text split into lines (the trailing newline yields no empty line).
  var lines: [String] {
    var lines = writes.joined().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }
}

/// A publisher driven by hand from a test, for one subscriber at a time: `send` delivers a
/// value if the subscriber asked for one, `finish`/`fail` complete. Single-threaded.
final class ManualDebugPublisher<Output, Failure: Error>: Publisher {
  private(set) var subscription: ManualDebugSubscription<Output, Failure>?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let subscription = ManualDebugSubscription<Output, Failure>(downstream: AnySubscriberBox(subscriber))
    self.subscription = subscription
    subscriber.receive(subscription: subscription)
  }

  /// Sends `value` if there is outstanding demand; returns whether it was sent.
  @discardableResult
  func send(_ value: Output) -> Bool { subscription?.send(value) ?? false }

  func finish() { subscription?.complete(.finished) }

  func fail(_ error: Failure) { subscription?.complete(.failure(error)) }

  /// Demands requested through the subscription, in order.
  var requests: [Subscribers.Demand] { subscription?.requests ?? [] }

  /// How many times the subscription was cancelled.
  var cancelCount: Int { subscription?.cancelCount ?? 0 }

  /// Forgets the subscription, so that only the pipeline holds it.
  func dropSubscription() { subscription = nil }
}

/// Type-erases a subscriber without depending on `AnySubscriber`.
struct AnySubscriberBox<Input, Failure: Error> {
  let receiveValue: (Input) -> Subscribers.Demand
  let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

  init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
    receiveValue = subscriber.receive(_:)
    receiveCompletion = subscriber.receive(completion:)
  }
}

final class ManualDebugSubscription<Output, Failure: Error>: Subscription, CustomStringConvertible {
  private var downstream: AnySubscriberBox<Output, Failure>?
  private var demand = Subscribers.Demand.none
  private(set) var requests: [Subscribers.Demand] = []
  private(set) var cancelCount = 0

  init(downstream: AnySubscriberBox<Output, Failure>) {
    self.downstream = downstream
  }

  func request(_ demand: Subscribers.Demand) {
    requests.append(demand)
    self.demand += demand
  }

  func cancel() {
    cancelCount += 1
    downstream = nil
  }

  func send(_ value: Output) -> Bool {
    guard let downstream, demand > 0 else { return false }
    demand -= 1
    demand += downstream.receiveValue(value)
    return true
  }

  func complete(_ completion: Subscribers.Completion<Failure>) {
    guard let downstream else { return }
    self.downstream = nil
    downstream.receiveCompletion(completion)
  }

  var description: String { "Manual" }
}
