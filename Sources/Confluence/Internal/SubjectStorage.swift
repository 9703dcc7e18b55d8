/// The shared machinery behind `PassthroughSubject`, `CurrentValueSubject`,
/// `ObservableObjectPublisher` and `Published.Publisher`: a lock, the subject's
/// ``SubjectState``, and the operations that take the lock, ask the state machines what
/// to do, release the lock, and then call the subscribers.
///
/// Cost per value with one subscriber that has demand: two lock acquisitions (plan the
/// delivery and take ownership; hand the returned demand back and give ownership up), one
/// indirect call into code specialised for the subscriber, no retain or release, and no
/// allocation. With `n` subscribers: `n + 1` acquisitions (see
/// ``deliver(_:toEach:generation:)``). `send` may be called from any
/// thread, and re-entrantly from inside a subscriber (the value is then queued and
/// delivered after the current one).
@usableFromInline
internal final class SubjectStorage<Output, Failure: Error> {
  @usableFromInline
  internal let lock = Lock()

  /// Guarded by `lock` (which is why runtime exclusivity checks are off for it).
  @exclusivity(unchecked) @usableFromInline
  internal var state: SubjectState<Output, Failure>

  /// What `print` shows for subscriptions to this subject.
  @usableFromInline
  internal let kind: SubjectKind

  /// A copy of `state.keepsCurrentValue` that may be read without the lock.
  @usableFromInline
  internal let keepsCurrentValue: Bool

  /// The subscriptions handed over with `send(subscription:)` (guarded by `lock`): asked
  /// for `.unlimited` (at once, or once a subscriber asks; see
  /// ``SubjectKind/requestsUpstreamAtOnce``), and cancelled when the subject goes away.
  @exclusivity(unchecked) @usableFromInline
  internal var upstreams: [Subscription] = []

  /// Whether any subscriber has requested demand yet (guarded by `lock`).
  @exclusivity(unchecked) @usableFromInline
  internal var hasAnyDownstreamDemand = false

  /// Creates the storage of a subject.
  ///
  /// - Parameters:
  ///   - kind: The public type it serves.
  ///   - currentValue: The initial value for a subject that keeps one (`.currentValue`).
  @inlinable
  internal init(kind: SubjectKind, currentValue: Output? = nil) {
    self.kind = kind
    keepsCurrentValue = kind.keepsCurrentValue
    state = SubjectState(keepsCurrentValue: keepsCurrentValue, currentValue: currentValue)
  }

  /// The current value (only for storage that keeps one).
  @inlinable
  internal var currentValue: Output {
    lock.withLock { state.currentValue.unsafelyUnwrapped }
  }

  /// Whether the subject has completed.
  @inlinable
  internal var isCompleted: Bool {
    lock.withLock { state.completion != nil }
  }

  /// Sends `value` to every subscriber that has demand for it.
  @inlinable
  internal func send(_ value: Output) {
    if keepsCurrentValue {
      sendKeepingCurrentValue(value)
      return
    }
    var none: Output?
    deliver(value, as: lock.withLock { state.send(value, keepingCurrentValue: false, replaced: &none) })
  }

  /// Sets the current value, as `CurrentValueSubject.value`'s setter: like ``send(_:)``,
  /// except that after completion the value still changes (without reaching anyone), as in
  /// Apple's Combine, where only `send(_:)` is ignored once the subject has completed.
  @inlinable
  internal func setCurrentValue(_ value: Output) {
    let (plan, replaced) = lock.withLock { () -> (SubjectState<Output, Failure>.SendPlan, Output?) in
      var replaced: Output?
      if state.completion != nil {
        replaced = state.currentValue.take()
        state.currentValue = value
        return (.none, replaced)
      }
      let plan = state.send(value, keepingCurrentValue: true, replaced: &replaced)
      return (plan, replaced)
    }
    deliver(value, as: plan)
    withExtendedLifetime(replaced) {}  // the previous current value dies outside the lock
  }

  /// ``send(_:)`` for a subject that keeps a current value.
  @inlinable
  internal func sendKeepingCurrentValue(_ value: Output) {
    let (plan, replaced) = lock.withLock { () -> (SubjectState<Output, Failure>.SendPlan, Output?) in
      var replaced: Output?
      let plan = state.send(value, keepingCurrentValue: true, replaced: &replaced)
      return (plan, replaced)
    }
    deliver(value, as: plan)
    withExtendedLifetime(replaced) {}  // the previous current value dies outside the lock
  }

  /// Carries out a plan made by `SubjectState.send`.
  @inlinable
  @inline(__always)
  internal func deliver(_ value: Output, as plan: SubjectState<Output, Failure>.SendPlan) {
    switch plan {
    case .none:
      break
    case .one(let conduit):
      // The subject's list keeps the conduit alive while this thread owns delivery.
      conduit._withUnsafeGuaranteedRef { $0.deliver(value) }
    case .many(let conduits, let generation):
      deliver(value, toEach: conduits, generation: generation)
    }
  }

  /// Offers `value`, of `generation`, to each of `conduits` in turn, and delivers it to
  /// each that takes it. One critical section both finishes a delivery (hands the returned
  /// demand back and gives ownership up, when nothing happened meanwhile) and offers the
  /// value to the next subscriber, so `n` subscribers cost `n + 1` lock acquisitions, not
  /// `2n + 1`. The order of the transitions is the same as finishing and offering in two
  /// critical sections.
  @inlinable
  internal func deliver(
    _ value: Output, toEach conduits: ContiguousArray<SubjectConduit<Output, Failure>>, generation: UInt64
  ) {
    // `conduits`, a snapshot of the list, keeps every conduit alive until this returns.
    var finishing: Unmanaged<SubjectConduit<Output, Failure>>?
    var more = Subscribers.Demand.none
    var index = conduits.startIndex
    while index < conduits.endIndex {
      let conduit = Unmanaged.passUnretained(conduits[index])
      let (finished, owns) = lock.withLock { () -> (Bool, Bool) in
        if let finishing, !finishing._withUnsafeGuaranteedRef({ $0.state.finishDelivery(returning: more) }) {
          return (false, false)
        }
        let owns = conduit._withUnsafeGuaranteedRef {
          $0.state.offer(value, keepsCurrentValue: keepsCurrentValue, generation: generation)
        }
        return (true, owns)
      }
      if !finished {
        // Something happened during the previous delivery (a value or the completion was
        // queued, a cancel, an owed current value): see to it before the next subscriber.
        finishing.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.continueDeliveryAfterEvents(after: more) }
        finishing = nil
        continue
      }
      finishing = nil
      if owns {
        more = conduit._withUnsafeGuaranteedRef { $0.send(value) }
        finishing = conduit
      }
      index += 1
    }
    if let finishing {
      finishing._withUnsafeGuaranteedRef { $0.continueDelivery(after: more) }
    }
  }

  /// Completes every subscriber; later sends are ignored and later subscribers receive the
  /// completion at once.
  @inlinable
  internal func send(completion: Subscribers.Completion<Failure>) {
    let completeNow = lock.withLock { state.complete(completion) }
    for conduit in completeNow {
      conduit.deliverCompletion(completion)
    }
  }

  /// Attaches `subscriber`: hands it a conduit (or, once completed, `Subscriptions.empty`
  /// and the completion).
  ///
  /// - Parameter parent: The public subject object, which the conduit keeps alive (and
  ///   shows in its mirror) until it is cancelled or completed, as Apple's conduits do.
  @inlinable
  internal func receive<S: Subscriber>(subscriber: S, parent: AnyObject) where S.Input == Output, S.Failure == Failure {
    let conduit = SubjectConduit(storage: self, parent: parent, downstream: subscriber)
    if let completion = lock.withLock({ state.subscribe(conduit) }) {
      // The conduit never served: it lets its references go without completing anyone.
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: completion)
      return
    }
    // A request from inside `receive(subscription:)` delivers at once (Apple's
    // `CurrentValueSubject` hands its current value over inside that request); a
    // completion that arrives meanwhile waits until it returns.
    subscriber.receive(subscription: conduit)
    conduit.finishSubscribing()
  }

  // MARK: Upstream subscriptions

  /// `send(subscription:)`: keeps `subscription`, and asks it for `.unlimited` at once if
  /// this kind of subject does, or if a subscriber already asked for something.
  @inlinable
  internal func receive(subscription: Subscription) {
    let requestNow = lock.withLock { () -> Bool in
      upstreams.append(subscription)
      return kind.requestsUpstreamAtOnce || hasAnyDownstreamDemand
    }
    if requestNow {
      subscription.request(.unlimited)
    }
  }

  /// Under the lock: a subscriber requested demand. Returns the upstream subscriptions to
  /// ask for `.unlimited` now, if this is the first demand of a subject that waited for it.
  @inlinable
  internal func noteDownstreamDemand() -> [Subscription]? {
    if hasAnyDownstreamDemand { return nil }
    hasAnyDownstreamDemand = true
    return kind.requestsUpstreamAtOnce || upstreams.isEmpty ? nil : upstreams
  }

  /// The subject goes away: cancels every upstream subscription it was handed.
  @usableFromInline
  internal func cancelUpstreams() {
    let cancelled = lock.withLock { () -> [Subscription] in
      defer { upstreams = [] }
      return upstreams
    }
    for subscription in cancelled {
      subscription.cancel()
    }
  }
}
