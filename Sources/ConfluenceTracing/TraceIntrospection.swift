import Confluence

/// Records every subscription of every pipeline into a ``TraceRecorder``, through the
/// `_Introspection` hook: each `subscribe(_:)` opens a lane named after the publisher's
/// type, and the subscriber's events, requests and cancels are recorded on it.
internal final class TraceIntrospection: _Introspection, @unchecked Sendable {
  // @unchecked Sendable: the lane tables are read and written only under `lock`; the
  // recorder is called after the lock is released.
  private let recorder: TraceRecorder
  private let lock = Lock()
  /// The lane of each watched subscriber.
  private var laneBySubscriber: [SubscriberKey: TraceLane] = [:]
  /// The lane of each subscription, by its `combineIdentifier`: the lane of the last
  /// subscriber handed it. Operators like `map` hand their subscriber the upstream
  /// subscription itself, so the subscriber furthest downstream — the one that requests
  /// and cancels — gets the subscription's lane.
  private var laneBySubscription: [CombineIdentifier: TraceLane] = [:]
  /// The subscription of each subscriber, to forget them together.
  private var subscriptionOfSubscriber: [SubscriberKey: CombineIdentifier] = [:]

  /// A watched subscriber: its `combineIdentifier` and its type. Operators like `map`
  /// subscribe a struct that has its downstream's `combineIdentifier` (as Apple's do), so
  /// the identifier alone does not tell the stages of a pipeline apart.
  private struct SubscriberKey: Hashable {
    let id: CombineIdentifier
    let type: ObjectIdentifier

    init<S: Subscriber>(_ subscriber: S) {
      id = subscriber.combineIdentifier
      type = ObjectIdentifier(S.self)
    }
  }

  init(recorder: TraceRecorder) {
    self.recorder = recorder
  }

  /// The lane for `subscriber`, opened (named after it) if it subscribed before recording.
  private func lane(of subscriber: SubscriberKey, orNamed name: @autoclosure () -> String) -> TraceLane {
    if let lane = lock.withLock({ laneBySubscriber[subscriber] }) { return lane }
    let lane = recorder.openLane(named: name())
    lock.withLock { laneBySubscriber[subscriber] = lane }
    return lane
  }

  /// Forgets a subscriber whose subscription ended, with its subscription.
  private func forget(subscriber: SubscriberKey) {
    lock.withLock {
      laneBySubscriber[subscriber] = nil
      if let subscription = subscriptionOfSubscriber.removeValue(forKey: subscriber) {
        laneBySubscription[subscription] = nil
      }
    }
  }

  func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
  where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {
    let lane = recorder.openLane(named: Self.stageName(of: Upstream.self))
    lock.withLock { laneBySubscriber[SubscriberKey(subscriber)] = lane }
    recorder.record(.subscribed, on: lane)
  }

  func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: Subscription) {
    let lane = lane(of: SubscriberKey(subscriber), orNamed: String(describing: subscriber))
    lock.withLock {
      laneBySubscription[subscription.combineIdentifier] = lane
      subscriptionOfSubscriber[SubscriberKey(subscriber)] = subscription.combineIdentifier
    }
    recorder.record(.subscription(String(describing: subscription)), on: lane)
  }

  func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input) {
    let lane = lane(of: SubscriberKey(subscriber), orNamed: String(describing: subscriber))
    recorder.record(.value(TraceRecorder.describe(input)), on: lane)
  }

  func didReceive<Downstream: Subscriber>(
    subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand
  ) {
    guard resultingDemand > 0 else { return }
    let lane = lane(of: SubscriberKey(subscriber), orNamed: String(describing: subscriber))
    recorder.record(.demandReturned(resultingDemand), on: lane)
  }

  func willReceive<Downstream: Subscriber>(
    subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
  ) {
    let lane = lane(of: SubscriberKey(subscriber), orNamed: String(describing: subscriber))
    switch completion {
    case .finished: recorder.record(.finished, on: lane)
    case .failure(let error): recorder.record(.failure(String(describing: error)), on: lane)
    }
    forget(subscriber: SubscriberKey(subscriber))
  }

  func willRequest(subscription: Subscription, _ demand: Subscribers.Demand) {
    guard let lane = lock.withLock({ laneBySubscription[subscription.combineIdentifier] }) else { return }
    recorder.record(.request(demand), on: lane)
  }

  func willCancel(subscription: Subscription) {
    let lane = lock.withLock { () -> TraceLane? in
      guard let lane = laneBySubscription.removeValue(forKey: subscription.combineIdentifier) else { return nil }
      // Every stage that was handed this subscription is over.
      for (subscriber, id) in subscriptionOfSubscriber where id == subscription.combineIdentifier {
        subscriptionOfSubscriber[subscriber] = nil
        laneBySubscriber[subscriber] = nil
      }
      return lane
    }
    if let lane { recorder.record(.cancel, on: lane) }
  }

  /// A publisher type's name without its generic arguments or namespace:
  /// `Publishers.Map<PassthroughSubject<Int, Never>, Int>` is `Map`.
  static func stageName(of type: Any.Type) -> String {
    var name = String(describing: type)
    if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
    if let dot = name.lastIndex(of: ".") { name = String(name[name.index(after: dot)...]) }
    return name
  }
}
