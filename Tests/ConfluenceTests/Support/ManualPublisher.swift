import Confluence
import ConfluenceTesting
import Foundation

/// A publisher driven by hand from a test: records the demand it was asked for and its
/// cancels, and sends only what the test tells it to (ignoring demand, so tests can also
/// probe how an operator copes with a misbehaving upstream). One subscriber at a time.
final class ManualPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
  // @unchecked Sendable: every mutable field is guarded by `lock`.
  private let lock = NSLock()
  private var subscriber: ClosureSubscriber<Output, Failure>?
  private var _requested: [Subscribers.Demand] = []
  private var _cancels = 0

  var requested: [Subscribers.Demand] { lock.withLock { _requested } }
  var cancels: Int { lock.withLock { _cancels } }

  init() {
    // Its subscription token keeps it, and it keeps its subscriber: let go at the test's end.
    runWhenTheTestEnds { [weak self] in self?.releaseSubscriber() }
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    lock.withLock { self.subscriber = ClosureSubscriber(subscriber) }
    subscriber.receive(subscription: Token(owner: self))
  }

  func send(_ value: Output) {
    _ = lock.withLock { subscriber }?.receiveValue(value)
  }

  func finish() {
    lock.withLock { subscriber }?.receiveCompletion(.finished)
  }

  func fail(_ error: Failure) {
    lock.withLock { subscriber }?.receiveCompletion(.failure(error))
  }

  /// Drops the subscriber, as a real publisher does after cancel or completion.
  func releaseSubscriber() {
    lock.withLock { subscriber = nil }
  }

  private final class Token: Subscription {
    let owner: ManualPublisher
    init(owner: ManualPublisher) { self.owner = owner }
    func request(_ demand: Subscribers.Demand) { owner.lock.withLock { owner._requested.append(demand) } }
    func cancel() { owner.lock.withLock { owner._cancels += 1 } }
  }
}

/// A subscriber's value and completion entry points as closures.
struct ClosureSubscriber<Input, Failure: Error> {
  let receiveValue: (Input) -> Subscribers.Demand
  let receiveCompletion: (Subscribers.Completion<Failure>) -> Void
  init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
    receiveValue = { subscriber.receive($0) }
    receiveCompletion = { subscriber.receive(completion: $0) }
  }
}

/// Measures how many threads are inside a region at once.
final class ConcurrencyProbe: @unchecked Sendable {
  // @unchecked Sendable: guarded by `lock`.
  private let lock = NSLock()
  private var inside = 0
  private var _maximum = 0
  var maximum: Int { lock.withLock { _maximum } }
  func enter() {
    lock.withLock {
      inside += 1
      _maximum = max(_maximum, inside)
    }
    usleep(1)
  }
  func leave() { lock.withLock { inside -= 1 } }
}
