/// The subscription a subject hands each subscriber, as the subject sees it: state guarded
/// by the subject's lock, and delivery entry points that the subject calls without knowing
/// the subscriber's type. ``SubjectDownstreamConduit`` implements them for one concrete
/// subscriber type, so that delivery is specialised in client code.
///
/// `print` shows it as the subject's type (`PassthroughSubject`, `CurrentValueSubject`, …).
@usableFromInline
internal class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
{
  /// The subject; kept alive while the subscriber holds its subscription.
  @usableFromInline
  internal let storage: SubjectStorage<Output, Failure>

  /// Guarded by `storage.lock`.
  @usableFromInline
  internal var state: SubjectConduitState<Output, Failure>

  @inlinable
  internal init(storage: SubjectStorage<Output, Failure>) {
    self.storage = storage
    state = SubjectConduitState(owesCurrentValue: storage.keepsCurrentValue)
  }

  /// Delivers `value`, then whatever was queued meanwhile. The caller owns delivery (its
  /// `offer` returned `true`) and keeps the conduit alive.
  @usableFromInline
  internal func deliver(_ value: Output) {
    fatalError("SubjectConduit.deliver(_:) is implemented by SubjectDownstreamConduit")
  }

  /// Delivers the subject's completion and releases the subscriber. The caller's
  /// `complete` transition returned `true`.
  @usableFromInline
  internal func deliverCompletion(_ completion: Subscribers.Completion<Failure>) {
    fatalError("SubjectConduit.deliverCompletion(_:) is implemented by SubjectDownstreamConduit")
  }

  @usableFromInline
  internal func request(_ demand: Subscribers.Demand) {
    fatalError("SubjectConduit.request(_:) is implemented by SubjectDownstreamConduit")
  }

  @usableFromInline
  internal func cancel() {
    fatalError("SubjectConduit.cancel() is implemented by SubjectDownstreamConduit")
  }

  @usableFromInline
  internal var description: String { storage.kind.subscriptionDescription }

  @usableFromInline
  internal var customMirror: Mirror {
    let demand = storage.lock.withLock { state.demand }
    return Mirror(self, children: ["demand": demand])
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}

/// A subject's subscription for one concrete subscriber type.
///
/// `downstream` is written only under the subject's lock, and only while no thread owns
/// delivery; the owner reads it without the lock (the lock hand-over orders the accesses).
@usableFromInline
internal final class SubjectDownstreamConduit<Downstream: Subscriber>: SubjectConduit<
  Downstream.Input, Downstream.Failure
>
{
  @usableFromInline
  internal typealias Output = Downstream.Input

  @usableFromInline
  internal typealias Failure = Downstream.Failure

  /// The subscriber, until completion or cancel.
  @usableFromInline
  internal var downstream: Downstream?

  @inlinable
  internal init(storage: SubjectStorage<Output, Failure>, downstream: Downstream) {
    self.downstream = downstream
    super.init(storage: storage)
  }

  /// What the owner does next, decided under the lock.
  @usableFromInline
  internal enum Step {
    case deliver(Output)
    case idle
    /// Deliver the completion to the taken subscriber; keep the list's reference alive.
    case complete(Subscribers.Completion<Failure>, Downstream?, SubjectConduit<Output, Failure>?)
    /// Release the taken subscriber, queue and list reference outside the lock.
    case release(Downstream?, [Output?], SubjectConduit<Output, Failure>?)
  }

  @inlinable
  override internal func deliver(_ value: Output) {
    continueDelivery(after: downstream.unsafelyUnwrapped.receive(value))
  }

  /// The owner's loop: hands back the demand the downstream returned, then delivers what
  /// was queued meanwhile, until there is nothing left and ownership is given up.
  @inlinable
  internal func continueDelivery(after more: Subscribers.Demand) {
    var more = more
    while true {
      let step = storage.lock.withLock { nextStep(after: more) }
      switch step {
      case .deliver(let value):
        more = downstream.unsafelyUnwrapped.receive(value)
      case .idle:
        return
      case .complete(let completion, let subscriber, let listed):
        subscriber?.receive(completion: completion)
        withExtendedLifetime(listed) {}
        return
      case .release(let subscriber, let pending, let listed):
        withExtendedLifetime((subscriber, pending, listed)) {}
        return
      }
    }
  }

  /// Under the lock: the owner's downstream call returned `more`.
  @inlinable
  internal func nextStep(after more: Subscribers.Demand) -> Step {
    switch state.didDeliver(returning: more, currentGeneration: storage.state.generation) {
    case .deliver(let value):
      return .deliver(value)
    case .deliverCurrentValue:
      return .deliver(storage.state.currentValue.unsafelyUnwrapped)
    case .idle:
      return .idle
    case .complete(let completion):
      return .complete(completion, takeDownstream(), storage.state.remove(self))
    case .cancelled:
      return .release(takeDownstream(), state.takePending(), storage.state.remove(self))
    }
  }

  /// Under the lock: takes the subscriber out, to be released (or completed) outside it.
  @inlinable
  internal func takeDownstream() -> Downstream? {
    defer { downstream = nil }
    return downstream
  }

  @inlinable
  override internal func deliverCompletion(_ completion: Subscribers.Completion<Failure>) {
    let subscriber = storage.lock.withLock { takeDownstream() }
    subscriber?.receive(completion: completion)
  }

  @inlinable
  override internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    var current: Output?
    let owns = storage.lock.withLock { () -> Bool in
      guard state.request(demand, currentGeneration: storage.state.generation) else { return false }
      current = storage.state.currentValue
      return true
    }
    if owns, let current {
      deliver(current)
    }
  }

  @inlinable
  override internal func cancel() {
    let released = storage.lock.withLock { () -> (Downstream?, [Output?], SubjectConduit<Output, Failure>?)? in
      guard state.cancel() else { return nil }
      return (takeDownstream(), state.takePending(), storage.state.remove(self))
    }
    // The subscriber, the queue, and possibly this conduit itself die here, unlocked.
    withExtendedLifetime(released) {}
  }

  @usableFromInline
  override internal var customMirror: Mirror {
    let (subscriber, demand) = storage.lock.withLock { (downstream, state.demand) }
    return Mirror(self, children: ["downstream": subscriber as Any, "demand": demand])
  }
}
