/// The subscriber behind `assign(to: &$property)`: requests `.unlimited` and sets the
/// `@Published` property (signalling `objectWillChange` like any other set) for every
/// value.
///
/// The property's box keeps it (and so the upstream subscription) alive until the
/// upstream completes or the box is freed, which cancels it; it refers to the box weakly,
/// so the pipeline never keeps the property's owner alive.
@usableFromInline
internal final class ObservationPublishedSubscriber<Value>: Subscriber, Cancellable, CustomStringConvertible {
  @usableFromInline internal typealias Input = Value
  @usableFromInline internal typealias Failure = Never

  @usableFromInline
  internal let lock = Lock()

  /// Guarded by `lock`.
  @usableFromInline
  internal weak var box: PublishedSubject<Value>?

  /// Guarded by `lock`.
  @usableFromInline
  internal var status = SubscriptionStatus.awaitingSubscription

  @inlinable
  internal init(box: PublishedSubject<Value>) {
    self.box = box
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    let target = lock.withLock { () -> PublishedSubject<Value>? in
      guard let box, status.accept(subscription) else { return nil }
      return box
    }
    guard let target else {
      subscription.cancel()
      return
    }
    target.addAssignment(self)
    subscription.request(.unlimited)
  }

  @inlinable
  internal func receive(_ input: Value) -> Subscribers.Demand {
    lock.withLock { box }?.set(input)
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Never>) {
    let target = lock.withLock { () -> PublishedSubject<Value>? in
      _ = status.terminate()
      return box
    }
    target?.removeAssignment(self)
  }

  @inlinable
  internal func cancel() {
    lock.withLock { status.terminate() }?.cancel()
  }

  @usableFromInline
  internal var description: String { "Assign" }
}
