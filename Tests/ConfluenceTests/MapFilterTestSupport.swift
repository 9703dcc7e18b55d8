import Confluence
import XCTest

/// A publisher a test drives by hand, for the map/filter operator tests: it sends what the
/// test tells it to, and records what the operator under test asks of it (demand requests,
/// cancels).
///
/// It serves one subscriber. Like a well-behaved upstream it drops the subscriber on
/// cancel and on completion (so lifetime tests can check that the chain is freed) and
/// sends nothing afterwards — unless `keepsSendingAfterCancel` is set, to check that an
/// operator ignores what a misbehaving upstream still sends.
final class ScriptedUpstream<Output, Failure: Error>: Publisher {
  /// Every demand the subscriber requested, in order.
  private(set) var requested: [Subscribers.Demand] = []
  /// Every non-zero demand the subscriber returned from `receive(_:)`, in order.
  private(set) var returned: [Subscribers.Demand] = []
  /// How many times the subscription was cancelled.
  private(set) var cancelCount = 0

  /// The `description` of the subscriber that subscribed (what `print` placed before the
  /// operator would name).
  private(set) var subscriberDescription: String?

  /// Whether `send` still reaches the subscriber after it cancelled.
  var keepsSendingAfterCancel = false

  private var deliverValue: ((Output) -> Subscribers.Demand)?
  private var deliverCompletion: ((Subscribers.Completion<Failure>) -> Void)?
  private var isCancelled = false

  /// Whether a subscriber is attached and neither cancelled nor completed.
  var hasSubscriber: Bool { deliverValue != nil && !isCancelled }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    subscriberDescription = String(describing: subscriber)
    deliverValue = subscriber.receive(_:)
    deliverCompletion = subscriber.receive(completion:)
    subscriber.receive(subscription: ManualSubscription(publisher: self))
  }

  /// Sends `value`; returns the demand the subscriber returned.
  @discardableResult
  func send(_ value: Output) -> Subscribers.Demand {
    guard let deliverValue, !isCancelled || keepsSendingAfterCancel else { return .none }
    let more = deliverValue(value)
    if more > 0 { returned.append(more) }
    return more
  }

  /// Sends each value in turn.
  func send(_ values: Output...) {
    for value in values { send(value) }
  }

  /// Completes and drops the subscriber.
  func send(completion: Subscribers.Completion<Failure>) {
    guard let deliverCompletion, !isCancelled || keepsSendingAfterCancel else { return }
    release()
    deliverCompletion(completion)
  }

  fileprivate func request(_ demand: Subscribers.Demand) {
    requested.append(demand)
  }

  fileprivate func cancel() {
    cancelCount += 1
    isCancelled = true
    if !keepsSendingAfterCancel { release() }
  }

  private func release() {
    deliverValue = nil
    deliverCompletion = nil
  }
}

private final class ManualSubscription<Output, Failure: Error>: Subscription, CustomStringConvertible {
  weak var publisher: ScriptedUpstream<Output, Failure>?

  init(publisher: ScriptedUpstream<Output, Failure>) {
    self.publisher = publisher
  }

  func request(_ demand: Subscribers.Demand) { publisher?.request(demand) }
  func cancel() { publisher?.cancel() }
  var description: String { "ScriptedUpstream" }
}

extension Sequence {
  /// This sequence's publisher behind `AnyPublisher`, so that the generic operators
  /// (`Publishers.Drop`, `Publishers.Output`, …) apply rather than the specialised
  /// overloads `Publishers.Sequence` declares for them.
  var genericPublisher: AnyPublisher<Element, Never> { publisher.eraseToAnyPublisher() }
}

/// An introspection that records the `description` of every subscriber subscribed while it
/// is enabled, in order: what the relay-fusion and relay hand-over tests compare.
final class SubscribedDescriptions: _Introspection {
  var subscribers: [String] = []

  func willReceive<P: Publisher, S: Subscriber>(publisher: P, subscriber: S)
  where P.Failure == S.Failure, P.Output == S.Input {
    subscribers.append("\(subscriber)")
  }
}
