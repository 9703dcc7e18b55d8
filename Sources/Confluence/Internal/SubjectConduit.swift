/// Holds a subject's subscriber of one concrete type, so that a conduit (which is not
/// generic over the subscriber) can keep it alive and release it at cancel or completion.
@usableFromInline
internal final class SubjectDownstreamBox<Downstream: Subscriber> {
  @usableFromInline
  internal let subscriber: Downstream

  @inlinable
  internal init(_ subscriber: Downstream) {
    self.subscriber = subscriber
  }
}

/// The subscription a subject hands each subscriber: state guarded by the subject's lock,
/// and the subscriber itself, boxed, with two functions that call it.
///
/// The two functions are made in the conduit's `init`, which client code specialises for
/// the concrete subscriber type (through ``SubjectStorage/receive(subscriber:)``), so
/// calling them runs specialised code. (A generic subclass per subscriber type would not:
/// class methods reached through the vtable run unspecialised, looking generic metadata up
/// on every value.) Their signatures mention no generic parameter, and the properties
/// holding them are not optional, on purpose: a closure stored at generic abstraction (a
/// generic parameter in its type, or wrapped in `Optional`) is called through a
/// reabstraction thunk that is allocated on every call. They capture nothing (the
/// subscriber is passed in, boxed), so they cost no allocation; and they are `let`
/// properties, so calling them needs no retain of a closure context, which reading a
/// `var` closure would. Everything else here is `final` and reached directly, so it is
/// specialised for the subject's `Output` and `Failure`.
///
/// `downstream` is written only under the subject's lock, and only while no thread owns
/// delivery; the owner reads it without the lock (the lock hand-over orders the accesses).
///
/// `print` shows it as the subject's type (`PassthroughSubject`, `CurrentValueSubject`, …).
@usableFromInline
internal final class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
{
  /// Calls the boxed subscriber (first pointer, a `SubjectDownstreamBox`) with the value
  /// the second pointer points to (an `Output`, borrowed).
  @usableFromInline
  internal typealias ValueHandler = (UnsafeRawPointer, UnsafeRawPointer) -> Subscribers.Demand

  /// Calls the boxed subscriber (first pointer) with the completion the second pointer
  /// points to (a `Subscribers.Completion<Failure>`, borrowed).
  @usableFromInline
  internal typealias CompletionHandler = (UnsafeRawPointer, UnsafeRawPointer) -> Void

  /// The subject; kept alive while the subscriber holds its subscription.
  @usableFromInline
  internal let storage: SubjectStorage<Output, Failure>

  /// Guarded by `storage.lock`. (`@exclusivity(unchecked)`: the lock already serialises
  /// every access, so the runtime's exclusivity bookkeeping would only cost time.)
  @exclusivity(unchecked) @usableFromInline
  internal var state: SubjectConduitState<Output, Failure>

  /// The boxed subscriber (a retained `SubjectDownstreamBox`) until completion or cancel,
  /// then `nil`. Guarded by `storage.lock` as described above.
  @exclusivity(unchecked) @usableFromInline
  internal var downstream: UnsafeRawPointer?

  /// Hands a value to the boxed subscriber.
  @usableFromInline
  internal let receiveValue: ValueHandler

  /// Hands the completion to the boxed subscriber.
  @usableFromInline
  internal let receiveCompletion: CompletionHandler

  /// Runs ``requestSpecialized(_:)`` (demand non-zero) or ``cancelSpecialized()`` (demand
  /// `.none`). `request` and `cancel` arrive through `any Subscription`, which runs this
  /// generic class's unspecialised code (generic metadata looked up at run time, thousands
  /// of instructions for a cancel); this function, formed in the specialised `init`, runs
  /// specialised code. It captures nothing, so it costs no allocation.
  @usableFromInline
  internal let specialized: (SubjectConduit, Subscribers.Demand) -> Void

  @inlinable
  internal init<Downstream: Subscriber>(storage: SubjectStorage<Output, Failure>, downstream: Downstream)
  where Downstream.Input == Output, Downstream.Failure == Failure {
    self.storage = storage
    self.downstream = UnsafeRawPointer(Unmanaged.passRetained(SubjectDownstreamBox(downstream)).toOpaque())
    receiveValue = { box, value in
      Unmanaged<SubjectDownstreamBox<Downstream>>.fromOpaque(box)._withUnsafeGuaranteedRef {
        $0.subscriber.receive(value.assumingMemoryBound(to: Output.self).pointee)
      }
    }
    receiveCompletion = { box, completion in
      Unmanaged<SubjectDownstreamBox<Downstream>>.fromOpaque(box)._withUnsafeGuaranteedRef {
        $0.subscriber.receive(
          completion: completion.assumingMemoryBound(to: Subscribers.Completion<Failure>.self).pointee)
      }
    }
    specialized = { conduit, demand in
      if demand == .none {
        conduit.cancelSpecialized()
      } else {
        conduit.requestSpecialized(demand)
      }
    }
    state = SubjectConduitState(owesCurrentValue: storage.keepsCurrentValue)
  }

  @inlinable
  deinit {
    if let downstream {
      Unmanaged<AnyObject>.fromOpaque(downstream).release()
    }
  }

  /// What the owner does next, decided under the lock.
  @usableFromInline
  internal enum Step {
    case deliver(Output)
    case idle
    /// Deliver the completion to the taken subscriber; keep the list's reference alive.
    case complete(Subscribers.Completion<Failure>, AnyObject?, SubjectConduit?)
    /// Release the taken subscriber, queue and list reference outside the lock.
    case release(AnyObject?, [Output?], SubjectConduit?)
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
    // Unprotected: the handler reads exactly one `Output` through the pointer, so the
    // stack protector that `withUnsafePointer` sets up (a canary stored and checked in the
    // caller, on every value) guards nothing here.
    _withUnprotectedUnsafePointer(to: value) { receiveValue(downstream.unsafelyUnwrapped, $0) }
  }

  /// The owner's loop: hands back the demand the downstream returned, then delivers what
  /// was queued meanwhile, until there is nothing left and ownership is given up.
  @inlinable
  internal func continueDelivery(after more: Subscribers.Demand) {
    if storage.lock.withLock({ state.finishDelivery(returning: more) }) { return }
    continueDeliveryAfterEvents(after: more)
  }

  /// ``continueDelivery(after:)`` when something happened during the downstream call: a
  /// value or the completion was queued, the subscriber cancelled, or a current value is
  /// owed.
  @inlinable
  internal func continueDeliveryAfterEvents(after more: Subscribers.Demand) {
    var more = more
    while true {
      let step = storage.lock.withLock { nextStep(after: more) }
      switch step {
      case .deliver(let value):
        more = send(value)
      case .idle:
        return
      case .complete(let completion, let subscriber, let listed):
        subscriber.map { complete($0, with: completion) }
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
    case .complete:
      // The subject recorded its completion before queueing it for any conduit.
      let completion = storage.state.completion.unsafelyUnwrapped
      return .complete(completion, takeDownstream(), storage.state.remove(self))
    case .cancelled:
      return .release(takeDownstream(), state.takePending(), storage.state.remove(self))
    }
  }

  /// Hands `completion` to the boxed subscriber `box` (outside the lock).
  @inlinable
  internal func complete(_ box: AnyObject, with completion: Subscribers.Completion<Failure>) {
    withUnsafePointer(to: completion) {
      receiveCompletion(UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque()), $0)
    }
  }

  /// Under the lock: takes the boxed subscriber out, to be released (or completed) outside it.
  @inlinable
  internal func takeDownstream() -> AnyObject? {
    guard let box = downstream else { return nil }
    downstream = nil
    return Unmanaged<AnyObject>.fromOpaque(box).takeRetainedValue()
  }

  /// Delivers the subject's completion and releases the subscriber. The caller's
  /// `complete` transition returned `true`.
  @inlinable
  internal func deliverCompletion(_ completion: Subscribers.Completion<Failure>) {
    let subscriber = storage.lock.withLock { takeDownstream() }
    subscriber.map { complete($0, with: completion) }
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    specialized(self, demand)
  }

  @inlinable
  internal func cancel() {
    specialized(self, .none)
  }

  /// ``request(_:)`` in specialised code.
  @inlinable
  internal func requestSpecialized(_ demand: Subscribers.Demand) {
    guard storage.keepsCurrentValue else {
      // Nothing is ever owed to a subscriber of a subject without a current value: the
      // demand is only recorded.
      storage.lock.withLock { state.addDemand(demand) }
      return
    }
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

  /// ``cancel()`` in specialised code.
  @inlinable
  internal func cancelSpecialized() {
    let released = storage.lock.withLock { () -> (AnyObject?, [Output?], SubjectConduit?)? in
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
