/// What a switching operator does when its first publisher completes.
@usableFromInline
internal enum SwitchDecision<Next, Failure: Error> {
  /// Subscribe downstream's outstanding demand to this publisher.
  case switchTo(Next)
  /// Send this completion downstream and stop.
  case complete(Subscribers.Completion<Failure>)
}

/// The subscription behind `catch`, `tryCatch` and `append`/`prepend` (`Concatenate`):
/// forwards a first publisher's values, and when it completes, asks `decide` whether to
/// complete downstream or to continue with a second publisher, carrying over the demand
/// downstream requested and has not yet received.
///
/// Threading: values of the first publisher pass without a lock in `catch` and `tryCatch`;
/// the demand they consume (`delivered`) and return (`returned`) is counted by the upstream
/// side alone, which the contract serialises. `request(_:)` adds to `requested` under `lock`,
/// so at the switch the outstanding demand is `requested + returned - delivered`.
/// `Concatenate` reads under `lock`, for each value, whether the value's publisher is the one
/// being forwarded (a cancel from another thread ends that). The decision closure (which
/// may run a user handler), downstream and both publishers are called outside the lock.
@usableFromInline
internal final class SwitchingSubscription<First: Publisher, Second: Publisher, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where First.Output == Downstream.Input, Second.Output == Downstream.Input {
  @usableFromInline internal typealias Input = First.Output
  @usableFromInline internal typealias Failure = First.Failure

  @usableFromInline
  internal enum Phase {
    case awaitingFirst
    case first(Subscription)
    /// Between the first publisher's completion and the second's subscription.
    case switching
    case second(Subscription)
    case done

    @inlinable
    internal var isFirst: Bool {
      if case .first = self { return true }
      return false
    }

    @inlinable
    internal var isSecond: Bool {
      if case .second = self { return true }
      return false
    }
  }

  @usableFromInline internal let name: String
  @usableFromInline internal let downstream: Downstream
  /// Guarded by `lock`; dropped once used or on cancel, so that what it holds (the
  /// suffix, the handler) is released then, as Apple's.
  @usableFromInline internal var decide:
    ((Subscribers.Completion<First.Failure>) -> SwitchDecision<Second, Downstream.Failure>)?
  @usableFromInline internal let convertSecondFailure: (Second.Failure) -> Downstream.Failure

  // Touched only by the first publisher's events (serialised).
  @usableFromInline internal var delivered = 0
  @usableFromInline internal var returned = Subscribers.Demand.none
  /// Demand known to be outstanding for the first publisher (a lower bound: downstream may
  /// have requested more since); looked up again under `lock` only when used up.
  @usableFromInline internal var budget = Subscribers.Demand.none

  /// Whether the first publisher's subscription was accepted: set by its
  /// `receive(subscription:)`, read by its values (both upstream events, serialised).
  @exclusivity(unchecked) @usableFromInline internal var hasFirstSubscription = false

  /// Whether values are checked against ``phase`` (Apple's `Concatenate`: values outside
  /// their publisher's subscription are ignored); `catch` and `tryCatch`, as Apple's, pass
  /// every value of either publisher on.
  @usableFromInline internal let gatesValues: Bool

  @usableFromInline internal let lock: BiasedLock

  // Guarded by `lock` (`@exclusivity(unchecked)`: the lock already serialises every access).
  @exclusivity(unchecked) @usableFromInline internal var phase = Phase.awaitingFirst
  /// Demand requested by downstream in the first phase; during the switch, what the
  /// second publisher will be asked for.
  @usableFromInline internal var requested = Subscribers.Demand.none

  @inlinable
  internal init(
    name: String,
    downstream: Downstream,
    decide: @escaping (Subscribers.Completion<First.Failure>) -> SwitchDecision<Second, Downstream.Failure>,
    convertSecondFailure: @escaping (Second.Failure) -> Downstream.Failure
  ) {
    lock = BiasedLock()
    self.name = name
    self.gatesValues = name == "Concatenate"
    self.downstream = downstream
    self.decide = decide
    self.convertSecondFailure = convertSecondFailure
  }

  // MARK: First publisher

  @inlinable
  internal func receive(subscription: Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard case .awaitingFirst = phase else { return false }
      phase = .first(subscription)
      hasFirstSubscription = true
      return true
    }
    guard accepted else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    if gatesValues {
      if !lock.withLock({ phase.isFirst }) { return .none }
    } else if !hasFirstSubscription {
      // As Apple's catch and tryCatch, which trap here (Concatenate ignores the value).
      confluencePreconditionFailure("\(name): received a value before the upstream subscription")
    }
    if budget == .none {
      // The known demand is used up: look again (slow path). Apple's Concatenate ignores a
      // value nobody asked for; its catch and tryCatch trap.
      budget = lock.withLock { requested + returned - delivered }
      if budget == .none {
        confluencePrecondition(gatesValues, "\(name): the upstream sent a value it was not asked for")
        return .none
      }
    }
    budget -= 1
    delivered += 1
    let more = downstream.receive(input)
    returned += more
    budget += more
    return more
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<First.Failure>) {
    let decide = lock.withLock {
      () -> ((Subscribers.Completion<First.Failure>) -> SwitchDecision<Second, Downstream.Failure>)? in
      switch phase {
      case .first:
        break
      case .switching, .second:
        // As Apple's catch and tryCatch, which trap when the upstream completes again.
        confluencePrecondition(gatesValues, "\(name): the upstream completed again after it had failed")
        return nil
      case .awaitingFirst, .done:
        return nil
      }
      phase = .switching
      defer { self.decide = nil }
      return self.decide
    }
    guard let decide else { return }
    switch decide(completion) {
    case .complete(let completion):
      let completes = lock.withLock { () -> Bool in
        guard case .switching = phase else { return false }
        phase = .done
        return true
      }
      if completes {
        downstream.receive(completion: completion)
      }
    case .switchTo(let next):
      let proceeds = lock.withLock { () -> Bool in
        guard case .switching = phase else { return false }
        requested = requested + returned - delivered
        return true
      }
      if proceeds {
        next._subscribeUpstream(SwitchingSecondSubscriber(owner: self))
      }
    }
  }

  // MARK: Second publisher

  @inlinable
  internal func receiveSecond(subscription: Subscription) {
    let demand = lock.withLock { () -> Subscribers.Demand? in
      guard case .switching = phase else { return nil }
      phase = .second(subscription)
      defer { requested = .none }
      return requested
    }
    guard let demand else {
      subscription.cancel()
      return
    }
    if demand > 0 {
      subscription.request(demand)
    }
  }

  @inlinable
  internal func receiveSecond(completion: Subscribers.Completion<Second.Failure>) {
    let isLive = lock.withLock { () -> Bool in
      guard case .second = phase else { return false }
      phase = .done
      return true
    }
    if isLive {
      downstream.receive(completion: completion.mapError(convertSecondFailure))
    }
  }

  // MARK: Subscription

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    // As Apple's concatenate: `.none` goes to the current upstream, not trapped.
    let target = lock.withLock { () -> Subscription? in
      switch phase {
      case .awaitingFirst, .switching:
        requested += demand
        return nil
      case .first(let subscription):
        requested += demand
        return subscription
      case .second(let subscription):
        return subscription
      case .done:
        return nil
      }
    }
    target?.request(demand)
  }

  @inlinable
  internal func cancel() {
    let (target, released) = lock.withLock { () -> (Subscription?, Any?) in
      // As Apple's catch and tryCatch: a cancel while the recovery publisher is being
      // subscribed is not remembered; the recovery goes on.
      if !gatesValues, case .switching = phase { return (nil, nil) }
      let released: Any? = decide
      decide = nil
      defer { phase = .done }
      switch phase {
      case .first(let subscription), .second(let subscription): return (subscription, released)
      case .awaitingFirst, .switching, .done: return (nil, released)
      }
    }
    _ = consume released  // the suffix or handler is released outside the lock
    target?.cancel()
  }

  /// As Apple's `Concatenate`, which subscribes to both publishers under downstream's
  /// identity; `catch` and `tryCatch` have their own.
  @usableFromInline
  internal var combineIdentifier: CombineIdentifier {
    gatesValues ? downstream.combineIdentifier : CombineIdentifier(self)
  }

  @usableFromInline
  internal var description: String { name }

  /// As Apple's: Concatenate shows nothing; catch and tryCatch show the downstream and the
  /// demand still outstanding.
  @usableFromInline
  internal var customMirror: Mirror { mirror(for: self) }

  @usableFromInline
  internal func mirror(for subject: Any) -> Mirror {
    if gatesValues { return Mirror(subject, children: [:]) }
    let asked = lock.withLock { requested }
    let outstanding = asked == .unlimited ? asked : asked + returned - delivered
    return Mirror(subject, children: ["downstream": downstream, "demand": outstanding])
  }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}

/// Subscribes a ``SwitchingSubscription`` to its first publisher where the subscriber must
/// be a type apart from the subscription (Apple's `Concatenate`): every event goes to the
/// owner.
@usableFromInline
@_eagerMove
internal struct SwitchingFirstSubscriber<First: Publisher, Second: Publisher, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where First.Output == Downstream.Input, Second.Output == Downstream.Input {
  @usableFromInline internal typealias Input = First.Output
  @usableFromInline internal typealias Failure = First.Failure

  @usableFromInline internal let owner: SwitchingSubscription<First, Second, Downstream>

  @inlinable
  internal var combineIdentifier: CombineIdentifier { owner.combineIdentifier }

  @inlinable
  internal init(owner: SwitchingSubscription<First, Second, Downstream>) {
    self.owner = owner
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    owner.receive(subscription: subscription)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    owner.receive(input)
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    owner.receive(completion: completion)
  }

  @usableFromInline
  internal var description: String { owner.name }

  @usableFromInline
  internal var customMirror: Mirror { owner.mirror(for: self) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}

/// Subscribes a ``SwitchingSubscription`` to its second publisher: values go straight to
/// downstream, the subscription and completion back to the owner.
@usableFromInline
@_eagerMove
internal struct SwitchingSecondSubscriber<First: Publisher, Second: Publisher, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where First.Output == Downstream.Input, Second.Output == Downstream.Input {
  @usableFromInline internal typealias Input = Second.Output
  @usableFromInline internal typealias Failure = Second.Failure

  @usableFromInline internal let owner: SwitchingSubscription<First, Second, Downstream>
  @usableFromInline internal let ownIdentifier = CombineIdentifier()

  @inlinable
  internal var combineIdentifier: CombineIdentifier {
    owner.gatesValues ? owner.combineIdentifier : ownIdentifier
  }

  @inlinable
  internal init(owner: SwitchingSubscription<First, Second, Downstream>) {
    self.owner = owner
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    owner.receiveSecond(subscription: subscription)
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    if owner.gatesValues && !owner.lock.withLock({ owner.phase.isSecond }) {
      return .none
    }
    return owner.downstream.receive(input)
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    owner.receiveSecond(completion: completion)
  }

  @usableFromInline
  internal var description: String { owner.name }

  @usableFromInline
  internal var customMirror: Mirror { owner.mirror(for: self) }

  @usableFromInline
  internal var playgroundDescription: Any { description }
}
