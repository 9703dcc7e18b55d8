import Confluence
import Foundation

/// A publisher the test drives by hand: it records every subscription, request and cancel,
/// and sends whatever the test tells it to the latest subscriber, ignoring demand (the
/// `TestSubscriber` downstream checks demand).
///
/// ```swift
/// let upstream = ScriptedPublisher<Int, TestError>()
/// upstream.collect().subscribe(subscriber)
/// upstream.send(1)
/// upstream.send(completion: .finished)
/// ```
///
/// `onSubscribe` runs after each subscriber received its subscription, so a test can
/// script a publisher that fails (or sends) synchronously, attempt by attempt (`retry`).
final class ScriptedPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
  // @unchecked Sendable: every mutable field is read and written under `lock`; the hook is
  // set before subscribing. An NSLock (a pthread mutex) rather than Mutex, so that the
  // thread sanitizer sees the ordering it provides.
  private let lock = NSLock()
  private var subscriptions: [ScriptedSubscription] = []
  private var recordedRequests: [Subscribers.Demand] = []
  private var recordedCancels = 0

  /// Called after the n-th (0-based) subscriber received its subscription.
  var onSubscribe: ((ScriptedPublisher, Int) -> Void)?

  init() {}

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let subscription = ScriptedSubscription(publisher: self, subscriber: AnySubscriberBox(subscriber))
    let attempt = locked { () -> Int in
      subscriptions.append(subscription)
      return subscriptions.count - 1
    }
    subscriber.receive(subscription: subscription)
    onSubscribe?(self, attempt)
  }

  /// Sends a value to the latest subscriber; returns the demand it answered.
  @discardableResult
  func send(_ value: Output) -> Subscribers.Demand {
    guard let subscriber = locked({ subscriptions.last?.subscriber }) else { return .none }
    return subscriber.receive(value)
  }

  /// Sends a completion to the latest subscriber and forgets it.
  func send(completion: Subscribers.Completion<Failure>) {
    guard let subscription = locked({ subscriptions.last }) else { return }
    let subscriber = locked { () -> AnySubscriberBox? in
      defer { subscription.subscriber = nil }
      return subscription.subscriber
    }
    subscriber?.receive(completion: completion)
  }

  /// How many subscribers attached so far.
  var subscriptionCount: Int { locked { subscriptions.count } }

  /// Every request any subscriber made, in order.
  var requests: [Subscribers.Demand] { locked { recordedRequests } }

  /// How many times a subscription was cancelled.
  var cancelCount: Int { locked { recordedCancels } }

  /// Whether the latest subscription still holds its subscriber.
  var holdsSubscriber: Bool { locked { subscriptions.last?.subscriber != nil } }

  fileprivate func locked<R>(_ body: () -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  fileprivate func record(request demand: Subscribers.Demand) {
    locked { recordedRequests.append(demand) }
  }

  fileprivate func recordCancel(of subscription: ScriptedSubscription) {
    let released = locked { () -> AnySubscriberBox? in
      recordedCancels += 1
      defer { subscription.subscriber = nil }
      return subscription.subscriber
    }
    _ = released
  }

  /// One subscriber's connection; `subscriber` is guarded by the publisher's mutex.
  final class ScriptedSubscription: Subscription, CustomStringConvertible {
    /// Weak: the publisher keeps its subscriptions, and the test keeps the publisher.
    weak var publisher: ScriptedPublisher?
    var subscriber: AnySubscriberBox?

    init(publisher: ScriptedPublisher, subscriber: AnySubscriberBox) {
      self.publisher = publisher
      self.subscriber = subscriber
    }

    func request(_ demand: Subscribers.Demand) { publisher?.record(request: demand) }

    func cancel() {
      if let publisher {
        publisher.recordCancel(of: self)
      } else {
        // The test is over (nobody can send any more): just let the subscriber go.
        subscriber = nil
      }
    }
    var description: String { "Scripted" }
  }

  /// A type-erased subscriber (the test kit has no AnySubscriber yet).
  final class AnySubscriberBox {
    let receiveValue: (Output) -> Subscribers.Demand
    let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

    init<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
      receiveValue = subscriber.receive(_:)
      receiveCompletion = subscriber.receive(completion:)
    }

    func receive(_ value: Output) -> Subscribers.Demand { receiveValue(value) }
    func receive(completion: Subscribers.Completion<Failure>) { receiveCompletion(completion) }
  }
}
