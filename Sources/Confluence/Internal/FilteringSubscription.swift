/// The subscription shared by every filter-like operator: it stands between upstream and
/// downstream and, for each value, does what its ``FilteringLogic`` decides — forward a
/// (transformed) value, drop it and ask upstream for one more, finish, or fail.
///
/// - Demand: downstream's requests go upstream unchanged; each dropped value returns
///   `.max(1)` from `receive(_:)`, so upstream sends one more in its place.
/// - Finishing or failing on its own (`prefix` done, a closure threw) cancels upstream
///   first, then completes downstream; nothing is sent after that.
/// - `request(_:)` and `cancel()` may come from any thread. The lock guards only the
///   upstream subscription (`status`); it is never held while calling out.
/// - Values take no lock: upstream serialises them (contract rule 5) and stops after
///   `cancel()`. `logic` and `isDone` are touched only from those serialised upstream
///   events.
/// - `description` is the logic's ``FilteringLogic/name`` (what `print` shows).
@usableFromInline
internal final class FilteringSubscription<Logic: FilteringLogic, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Logic.Output, Downstream.Failure == Logic.Failure {
  @usableFromInline internal typealias Input = Logic.Input
  @usableFromInline internal typealias Failure = Logic.UpstreamFailure

  @usableFromInline
  internal let downstream: Downstream

  /// The operator's closure and state. Accessed only from upstream's serialised
  /// `receive(_:)`, so there is never an overlapping access to check at run time.
  @usableFromInline
  @exclusivity(unchecked)
  internal var logic: Logic

  /// Set (from the upstream event path only) once this subscription finished or failed on
  /// its own, so that values upstream still sends are ignored.
  @usableFromInline
  @exclusivity(unchecked)
  internal var isDone = false

  @usableFromInline
  internal let lock = Lock()

  /// Guarded by `lock`.
  @usableFromInline
  internal var status = SubscriptionStatus.awaitingSubscription

  @inlinable
  internal init(downstream: Downstream, logic: Logic) {
    self.downstream = downstream
    self.logic = logic
  }

  // MARK: Subscriber (upstream side)

  @inlinable
  internal func receive(subscription: Subscription) {
    guard lock.withLock({ status.accept(subscription) }) else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    if isDone { return .none }
    switch logic.receive(input) {
    case .publish(let output):
      return downstream.receive(output)
    case .skip:
      return .max(1)
    case .publishAndFinish(let output):
      isDone = true
      _ = downstream.receive(output)
      terminate(with: .finished)
      return .none
    case .finish:
      isDone = true
      terminate(with: .finished)
      return .none
    case .fail(let error):
      isDone = true
      terminate(with: .failure(error))
      return .none
    }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    let isLive = lock.withLock { () -> Bool in
      guard case .subscribed = status else { return false }
      status = .terminal
      return true
    }
    guard isLive else { return }
    switch completion {
    case .finished:
      downstream.receive(completion: .finished)
    case .failure(let error):
      downstream.receive(completion: .failure(logic.convert(error)))
    }
  }

  /// Cancels upstream and completes downstream, unless downstream already cancelled.
  @inlinable
  internal func terminate(with completion: Subscribers.Completion<Downstream.Failure>) {
    let upstream = lock.withLock { () -> Subscription? in
      guard case .subscribed(let subscription) = status else { return nil }
      status = .terminal
      return subscription
    }
    guard let upstream else { return }
    upstream.cancel()
    downstream.receive(completion: completion)
  }

  // MARK: Subscription (downstream side)

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    lock.withLock { status.subscription }?.request(demand)
  }

  @inlinable
  internal func cancel() {
    lock.withLock { status.terminate() }?.cancel()
  }

  // MARK: Descriptions

  @usableFromInline
  internal var description: String { Logic.name }

  @usableFromInline
  internal var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}

