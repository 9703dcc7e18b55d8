/// The subscriber that `Publisher.subscribe(_:)` attaches upstream on a subject's behalf:
/// it hands itself to the subject as the upstream subscription (the subject requests
/// `.unlimited` through it), and forwards values and the completion to the subject.
///
/// It holds the subject strongly until completion or cancel; the `AnyCancellable`
/// returned to the caller cancels it.
@usableFromInline
internal final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Output
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline
  internal let lock = Lock()

  /// The subject, until completion or cancel (guarded by `lock`).
  @usableFromInline
  internal var subject: Downstream?

  /// Guarded by `lock`.
  @usableFromInline
  internal var status = SubscriptionStatus.awaitingSubscription

  @inlinable
  internal init(subject: Downstream) {
    self.subject = subject
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    let target = lock.withLock { () -> Downstream? in
      guard let subject, status.accept(subscription) else { return nil }
      return subject
    }
    guard let target else {
      subscription.cancel()
      return
    }
    target.send(subscription: self)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    lock.withLock { subject }?.send(input)
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    let target = lock.withLock { () -> Downstream? in
      _ = status.terminate()
      defer { subject = nil }
      return subject
    }
    target?.send(completion: completion)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    lock.withLock { status.subscription }?.request(demand)
  }

  @inlinable
  internal func cancel() {
    let (upstream, released) = lock.withLock { () -> (Subscription?, Downstream?) in
      defer { subject = nil }
      return (status.terminate(), subject)
    }
    upstream?.cancel()
    withExtendedLifetime(released) {}
  }

  @usableFromInline
  internal var description: String { "Subject" }

  @usableFromInline
  internal var customMirror: Mirror {
    Mirror(self, children: ["subject": lock.withLock { subject } as Any])
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
