import Confluence
import ConfluenceTesting

/// An upstream a test plays event by event: subscribing to it only stores the subscriber;
/// the test decides when (and how many times) that subscriber receives a subscription, and
/// may send values and completions before, between or after — the edges Apple's operators
/// have rules for.
///
/// ```swift
/// let upstream = DetachedUpstream<Int, TestError>()
/// upstream.count().subscribe(subscriber)
/// XCTAssertEqual(upstream.send(1), .none)        // before any subscription
/// let subscription = upstream.attach()            // now the operator is subscribed
/// XCTAssertEqual(subscription.events, [.requested(.unlimited)])
/// ```
final class DetachedUpstream<Output, Failure: Error>: Publisher {
  private var subscriber: AnySubscriber<Output, Failure>?

  private var subscribed: Any?

  /// The subscriber exactly as the operator passed it in, to reach it as a `Subscription`
  /// before it has handed itself downstream, or to read its mirror. (Not optional: an
  /// `Optional` would answer the casts to `CustomReflectable` and friends itself.)
  var operatorSubscriber: Any {
    guard let subscribed else { preconditionFailure("nothing subscribed to the DetachedUpstream yet") }
    return subscribed
  }

  init() {
    // It keeps its subscriber for the whole test; an operator that keeps its upstream
    // publisher (retry) would otherwise keep both alive after the test.
    runWhenTheTestEnds { [weak self] in
      self?.subscriber = nil
      self?.subscribed = nil
    }
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    self.subscriber = AnySubscriber(subscriber)
    subscribed = subscriber
  }

  /// The operator's subscriber seen as a subscription (reducing operators are both).
  var operatorSubscription: Subscription? { operatorSubscriber as? Subscription }

  /// Hands `subscription` to the operator and returns it.
  @discardableResult
  func attach(_ subscription: RecordingSubscription = RecordingSubscription()) -> RecordingSubscription {
    subscriber?.receive(subscription: subscription)
    return subscription
  }

  @discardableResult
  func send(_ value: Output) -> Subscribers.Demand {
    subscriber?.receive(value) ?? .none
  }

  func send(completion: Subscribers.Completion<Failure>) {
    subscriber?.receive(completion: completion)
  }
}

/// A subscription that records what was asked of it.
final class RecordingSubscription: Subscription, CustomStringConvertible {
  enum Event: Equatable, CustomStringConvertible {
    case requested(Subscribers.Demand)
    case cancelled

    var description: String {
      switch self {
      case .requested(let demand): return "requested(\(demand))"
      case .cancelled: return "cancelled"
      }
    }
  }

  private(set) var events: [Event] = []

  init() {}

  /// Called after each request is recorded.
  var onRequest: ((Subscribers.Demand) -> Void)?

  func request(_ demand: Subscribers.Demand) {
    events.append(.requested(demand))
    onRequest?(demand)
  }
  var onCancel: (() -> Void)?

  func cancel() {
    events.append(.cancelled)
    onCancel?()
  }
  var description: String { "Recording" }
}
