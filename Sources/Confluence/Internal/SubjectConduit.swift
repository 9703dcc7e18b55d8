/// What a subject hands its subscriber: a value or the completion.
@usableFromInline
internal enum SubjectEvent<Output, Failure: Error> {
  case value(Output)
  case completion(Subscribers.Completion<Failure>)
}

/// The subscription a subject hands each subscriber: state guarded by the subject's lock,
/// and the subscriber itself, type-erased into one closure.
///
/// The closure is made in ``SubjectStorage/receive(subscriber:)``, which client code
/// specialises for the concrete subscriber type, so calling it runs specialised code.
/// (A generic subclass per subscriber type would not: class methods reached through the
/// vtable run unspecialised, looking generic metadata up on every value.) Everything else
/// here is `final` and reached directly, so it is specialised for the subject's `Output`
/// and `Failure`.
///
/// `downstream` is written only under the subject's lock, and only while no thread owns
/// delivery; the owner reads it without the lock (the lock hand-over orders the accesses).
///
/// `print` shows it as the subject's type (`PassthroughSubject`, `CurrentValueSubject`, …).
@usableFromInline
internal final class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
{
  /// The subscriber, called with a pointer to a `SubjectEvent<Output, Failure>`. The
  /// signature mentions no generic parameter, and the property holding it is not
  /// optional, on purpose: a closure stored at generic abstraction (a generic parameter
  /// in its type, or wrapped in `Optional`) is called through a reabstraction thunk that
  /// is allocated on every call.
  @usableFromInline
  internal typealias Downstream = (UnsafeMutableRawPointer) -> Subscribers.Demand

  /// The subject; kept alive while the subscriber holds its subscription.
  @usableFromInline
  internal let storage: SubjectStorage<Output, Failure>

  /// Guarded by `storage.lock`. (`@exclusivity(unchecked)`: the lock already serialises
  /// every access, so the runtime's exclusivity bookkeeping would only cost time.)
  @exclusivity(unchecked) @usableFromInline
  internal var state: SubjectConduitState<Output, Failure>

  /// The subscriber until completion or cancel, then ``detached``.
  @exclusivity(unchecked) @usableFromInline
  internal var downstream: Downstream

  /// Whether `downstream` is still the subscriber.
  @exclusivity(unchecked) @usableFromInline
  internal var isAttached = true

  /// What `downstream` becomes once the subscriber is released.
  @inlinable
  internal static var detached: Downstream {
    { _ in .none }
  }

  @inlinable
  internal init(storage: SubjectStorage<Output, Failure>, downstream: @escaping Downstream) {
    self.storage = storage
    self.downstream = downstream
    state = SubjectConduitState(owesCurrentValue: storage.keepsCurrentValue)
  }

  /// What the owner does next, decided under the lock.
  @usableFromInline
  internal enum Step {
    case deliver(Output)
    case idle
    /// Deliver the completion to the taken subscriber; keep the list's reference alive.
    case complete(Subscribers.Completion<Failure>, Downstream?, SubjectConduit?)
    /// Release the taken subscriber, queue and list reference outside the lock.
    case release(Downstream?, [Output?], SubjectConduit?)
  }

  /// Delivers `value`, then whatever was queued meanwhile. The caller owns delivery (its
  /// `offer` returned `true`) and keeps the conduit alive.
  @inlinable
  internal func deliver(_ value: Output) {
    continueDelivery(after: send(value))
  }

  /// The owner hands `value` to the subscriber.
  @inlinable
  @inline(__always)
  internal func send(_ value: Output) -> Subscribers.Demand {
    var event = SubjectEvent<Output, Failure>.value(value)
    return withUnsafeMutablePointer(to: &event) { downstream(UnsafeMutableRawPointer($0)) }
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
        more = send(value)
      case .idle:
        return
      case .complete(let completion, let subscriber, let listed):
        subscriber.map { SubjectConduit.complete($0, with: completion) }
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

  /// Hands `completion` to `subscriber` (outside the lock).
  @inlinable
  internal static func complete(_ subscriber: Downstream, with completion: Subscribers.Completion<Failure>) {
    var event = SubjectEvent<Output, Failure>.completion(completion)
    _ = withUnsafeMutablePointer(to: &event) { subscriber(UnsafeMutableRawPointer($0)) }
  }

  /// Under the lock: takes the subscriber out, to be released (or completed) outside it.
  @inlinable
  internal func takeDownstream() -> Downstream? {
    guard isAttached else { return nil }
    isAttached = false
    defer { downstream = SubjectConduit.detached }
    return downstream
  }

  /// Delivers the subject's completion and releases the subscriber. The caller's
  /// `complete` transition returned `true`.
  @inlinable
  internal func deliverCompletion(_ completion: Subscribers.Completion<Failure>) {
    let subscriber = storage.lock.withLock { takeDownstream() }
    subscriber.map { SubjectConduit.complete($0, with: completion) }
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
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
  internal func cancel() {
    let released = storage.lock.withLock { () -> (Downstream?, [Output?], SubjectConduit?)? in
      guard state.cancel() else { return nil }
      return (takeDownstream(), state.takePending(), storage.state.remove(self))
    }
    // The subscriber, the queue, and possibly this conduit itself die here, unlocked.
    withExtendedLifetime(released) {}
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
