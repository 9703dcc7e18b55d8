import Confluence
import Foundation

/// A subject written the way libraries and apps outside Confluence write one (a plain
/// class, an `NSLock`, a list of subscriptions), for the lifetime tests.
///
/// What matters about it: each subscription it hands out keeps its subscriber strongly
/// until that subscription is cancelled — also after the subject completed — and the
/// subject keeps the upstream subscriptions it is given (requesting unlimited from each)
/// until it goes. An operator that keeps such a subscription after the end forms a cycle
/// with it; Apple's operators let go at completion and at cancel, so none forms.
final class ThirdPartySubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  // @unchecked Sendable: every stored property is only touched under `lock`.
  private let lock = NSLock()
  private var subscriptions: [ThirdPartySubscription<Output, Failure>] = []
  private var upstreams: [Subscription] = []
  private var completion: Subscribers.Completion<Failure>?
  private weak var lastSubscription: ThirdPartySubscription<Output, Failure>?

  init() {}

  /// The subscription handed to the latest subscriber, while something keeps it alive.
  var latestSubscription: ThirdPartySubscription<Output, Failure>? { lock.withLock { lastSubscription } }

  func send(subscription: Subscription) {
    lock.withLock { upstreams.append(subscription) }
    subscription.request(.unlimited)
  }

  func send(_ value: Output) {
    let targets = lock.withLock { completion == nil ? subscriptions : [] }
    for target in targets { target.forward(value) }
  }

  func send(completion: Subscribers.Completion<Failure>) {
    let targets = lock.withLock { () -> [ThirdPartySubscription<Output, Failure>] in
      guard self.completion == nil else { return [] }
      self.completion = completion
      defer { subscriptions.removeAll() }
      return subscriptions
    }
    for target in targets { target.forward(completion: completion) }
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let subscription = ThirdPartySubscription<Output, Failure>(subscriber: AnySubscriber(subscriber)) { [weak self] in
      self?.remove($0)
    }
    let ended = lock.withLock { () -> Subscribers.Completion<Failure>? in
      if completion == nil { subscriptions.append(subscription) }
      lastSubscription = subscription
      return completion
    }
    subscriber.receive(subscription: subscription)
    if let ended { subscription.forward(completion: ended) }
  }

  private func remove(_ subscription: ThirdPartySubscription<Output, Failure>) {
    lock.withLock { subscriptions.removeAll { $0 === subscription } }
  }
}

/// The subscription ``ThirdPartySubject`` and ``ThirdPartyPublisher`` hand out: it counts
/// demand and keeps its subscriber until `cancel()`, whatever happened before.
final class ThirdPartySubscription<Output, Failure: Error>: Subscription, @unchecked Sendable {
  // @unchecked Sendable: every stored property is only touched under `lock`.
  private let lock = NSLock()
  private var subscriber: AnySubscriber<Output, Failure>?
  private var demand = Subscribers.Demand.none
  private var finished = false
  private let onCancel: (ThirdPartySubscription) -> Void
  /// Something the test tracks, to see when the subscription goes.
  private let token: AnyObject?
  /// Runs once per request, outside the lock (a publisher uses it to send what is asked).
  var onRequest: ((Subscribers.Demand) -> Void)?

  init(
    subscriber: AnySubscriber<Output, Failure>, token: AnyObject? = nil,
    onCancel: @escaping (ThirdPartySubscription) -> Void
  ) {
    self.subscriber = subscriber
    self.token = token
    self.onCancel = onCancel
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { self.demand += demand }
    onRequest?(demand)
  }

  func cancel() {
    let cancelled = lock.withLock { () -> AnySubscriber<Output, Failure>? in
      defer { subscriber = nil }
      return subscriber
    }
    if cancelled != nil { onCancel(self) }
  }

  /// Sends `value` if it was asked for (a value nobody asked for is dropped).
  func forward(_ value: Output) {
    let target = lock.withLock { () -> AnySubscriber<Output, Failure>? in
      guard !finished, demand > 0, let subscriber else { return nil }
      demand -= 1
      return subscriber
    }
    guard let target else { return }
    let more = target.receive(value)
    if more > 0 { lock.withLock { demand += more } }
  }

  /// Sends the completion. The subscriber stays referenced until `cancel()`.
  func forward(completion: Subscribers.Completion<Failure>) {
    let target = lock.withLock { () -> AnySubscriber<Output, Failure>? in
      guard !finished else { return nil }
      finished = true
      return subscriber
    }
    target?.receive(completion: completion)
  }

  var isHoldingSubscriber: Bool { lock.withLock { subscriber != nil } }
}

/// A cold publisher written the way code outside Confluence writes one: each subscriber
/// gets a ``ThirdPartySubscription`` (which keeps it until cancelled, also after
/// completion), and the test drives it through the subscriptions it made. It forgets a
/// subscription once it is cancelled or completed.
final class ThirdPartyPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
  // @unchecked Sendable: `made` is only touched under `lock`.
  private let lock = NSLock()
  private var made: [ThirdPartySubscription<Output, Failure>] = []
  /// Whether a subscriber gets its subscription as it subscribes (or only at ``attach()``).
  let subscribesAtOnce: Bool
  private var pending: [(AnySubscriber<Output, Failure>, ThirdPartySubscription<Output, Failure>)] = []
  private var completion: Subscribers.Completion<Failure>?

  private let token: (() -> AnyObject)?

  /// - Parameters:
  ///   - subscribesAtOnce: Whether a subscriber gets its subscription as it subscribes.
  ///   - token: Makes an object for each subscription to hold, so that a test can track it.
  init(subscribesAtOnce: Bool = true, token: (() -> AnyObject)? = nil) {
    self.subscribesAtOnce = subscribesAtOnce
    self.token = token
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let erased = AnySubscriber(subscriber)
    let subscription = ThirdPartySubscription<Output, Failure>(subscriber: erased, token: token?()) { [weak self] in
      self?.forget($0)
    }
    if subscribesAtOnce {
      let ended = lock.withLock { () -> Subscribers.Completion<Failure>? in
        if completion == nil { made.append(subscription) }
        return completion
      }
      subscriber.receive(subscription: subscription)
      // A subscriber that comes after the end gets the end at once (its subscription still
      // keeps it until cancelled).
      if let ended { subscription.forward(completion: ended) }
    } else {
      lock.withLock { pending.append((erased, subscription)) }
    }
  }

  private func forget(_ subscription: ThirdPartySubscription<Output, Failure>) {
    lock.withLock {
      made.removeAll { $0 === subscription }
      pending.removeAll { $0.1 === subscription }
    }
  }

  /// Hands the subscriptions of subscribers that arrived while ``subscribesAtOnce`` was off.
  func attach() {
    let waiting = lock.withLock { () -> [(AnySubscriber<Output, Failure>, ThirdPartySubscription<Output, Failure>)] in
      defer { pending.removeAll() }
      made.append(contentsOf: pending.map(\.1))
      return pending
    }
    for (subscriber, subscription) in waiting { subscriber.receive(subscription: subscription) }
  }

  /// Cancels every subscription still live (for a test's clean-up).
  func cancelAll() {
    let all = lock.withLock { () -> [ThirdPartySubscription<Output, Failure>] in
      defer {
        made.removeAll()
        pending.removeAll()
      }
      return made + pending.map(\.1)
    }
    for subscription in all { subscription.cancel() }
  }

  /// Sends `value` to every subscriber that asked for one.
  func send(_ value: Output) {
    for subscription in lock.withLock({ made }) { subscription.forward(value) }
  }

  /// Completes every subscription, and forgets them: from here on only the subscriptions
  /// themselves (and whoever holds them) keep the subscribers.
  func send(completion: Subscribers.Completion<Failure>) {
    let all = lock.withLock { () -> [ThirdPartySubscription<Output, Failure>] in
      defer { made.removeAll() }
      if self.completion == nil { self.completion = completion }
      return made
    }
    for subscription in all { subscription.forward(completion: completion) }
  }
}
