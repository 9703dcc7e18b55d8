// The state machine of one subscriber ("conduit") of a subject.
//
// A subject keeps one `SubjectConduitState` per subscriber, inside the conduit object,
// and reads or changes it only while holding the subject's lock. The transitions below
// never call out; they tell the caller what to do once the lock is released.
//
// Delivery is serialised (ARCHITECTURE.md, contract rule 5) by *ownership*: at most one thread
// at a time "owns" a conduit (`isDelivering`) and only the owner calls the downstream.
// The owner itself, sending re-entrantly from inside `receive(_:)`, reserves demand and
// queues its value; the owner drains the queue before it gives ownership up. Another
// thread that sends while the conduit is owned waits until ownership is given up and then
// delivers its value itself (``wouldQueue(keepsCurrentValue:generation:)`` tells the two
// apart for `SubjectStorage`), as a send to Apple's subjects returns only once its value
// was delivered, on the sender's thread.
//
// While the subscriber is inside `receive(subscription:)` (`isSubscribing`) the conduit is
// not owned: as in Apple's Combine, a request made from there delivers at once (a
// `CurrentValueSubject` hands over its current value inside that `request`). Values need
// demand, which only the subscriber can grant, so nothing reaches it unasked; only the
// completion, which needs no demand, is held back until `receive(subscription:)` returns.

/// One subscriber's demand, delivery ownership, queue and terminal state.
@usableFromInline
internal struct SubjectConduitState<Output, Failure: Error> {
  /// Demand granted and not yet used by a delivered or queued value.
  @usableFromInline
  internal var demand = Subscribers.Demand.none

  /// Whether a thread owns delivery to the downstream.
  @usableFromInline
  internal var isDelivering = false

  /// The subscriber has not returned from `receive(subscription:)` yet: a completion
  /// waits (`isCompletionPending`) until it has.
  @usableFromInline
  internal var isSubscribing = true

  /// Cancelled or completed: nothing more reaches the downstream.
  @usableFromInline
  internal var isTerminal = false

  /// `CurrentValueSubject` only: the subscriber has not seen the subject's current value
  /// (it subscribed, or a value arrived while it had no demand). The next demand delivers
  /// the value current at that moment.
  @usableFromInline
  internal var owesCurrentValue: Bool

  /// `CurrentValueSubject` only: the generation (see `SubjectState.generation`) of the
  /// newest value this subscriber has taken, delivered or queued. An older value is never
  /// delivered after a newer one, nor the same value twice (a subscriber may take the
  /// current value on demand before the sender that set it reaches this subscriber).
  @usableFromInline
  internal var takenGeneration: UInt64 = 0

  /// Values sent while another thread owned delivery; demand for each is already reserved.
  /// Delivered slots are emptied (set to `nil`) so that nothing is released under the lock.
  @usableFromInline
  internal var pending: [Output?] = []

  /// The index in `pending` of the next value to deliver.
  @usableFromInline
  internal var pendingHead = 0

  /// The subject completed while another thread owned delivery; the completion (the
  /// subject's `SubjectState.completion`) follows `pending`.
  ///
  /// A flag rather than the completion itself: a stored `Subscribers.Completion<Failure>?`
  /// would make this struct's layout depend on `Failure`, and the conduit's deinit (never
  /// specialised, being a generic class's) would then look this struct's metadata up in
  /// the runtime's cache on every release. With only fixed-size fields
  /// it destroys them directly.
  @usableFromInline
  internal var isCompletionPending = false

  @inlinable
  internal init(owesCurrentValue: Bool) {
    self.owesCurrentValue = owesCurrentValue
  }

  // MARK: Transitions

  /// Whether offering a value of `generation` now would queue it behind the thread that
  /// owns delivery, rather than deliver or drop it: the caller then decides whether to
  /// queue it (a re-entrant send, from the owner's own thread) or to wait for the owner
  /// and deliver it itself (a send from another thread).
  @inlinable
  internal func wouldQueue(keepsCurrentValue: Bool, generation: UInt64) -> Bool {
    isDelivering && !isTerminal && !isCompletionPending && demand != .none
      && !(keepsCurrentValue && generation <= takenGeneration)
  }

  /// A value was sent. Returns `true` if the caller now owns delivery and must deliver the
  /// value; otherwise the value was queued (demand reserved), or dropped for lack of demand.
  ///
  /// - Parameters:
  ///   - keepsCurrentValue: `true` for `CurrentValueSubject`, whose subscribers receive
  ///     the then-current value once demand arrives instead of losing it.
  ///   - generation: The value's generation (only used when `keepsCurrentValue`).
  @inlinable
  @inline(__always)
  internal mutating func offer(_ value: Output, keepsCurrentValue: Bool, generation: UInt64) -> Bool {
    // The common case first: nobody owns delivery (so nothing is queued and no completion
    // is pending), the subscriber is live and has demand.
    if !keepsCurrentValue && !isDelivering && !isTerminal && demand != .none {
      demand -= 1
      isDelivering = true
      return true
    }
    return offerQueueingOrDropping(value, keepsCurrentValue: keepsCurrentValue, generation: generation)
  }

  /// ``offer(_:keepsCurrentValue:generation:)`` in every case.
  @inlinable
  internal mutating func offerQueueingOrDropping(_ value: Output, keepsCurrentValue: Bool, generation: UInt64) -> Bool {
    if isTerminal || isCompletionPending { return false }
    if keepsCurrentValue && generation <= takenGeneration { return false }
    if demand == .none {
      if keepsCurrentValue { owesCurrentValue = true }
      return false
    }
    demand -= 1
    owesCurrentValue = false
    takenGeneration = generation
    if isDelivering {
      pending.append(value)
      return false
    }
    isDelivering = true
    return true
  }

  /// What the owner does after the downstream returned from a call.
  @usableFromInline
  internal enum NextStep {
    /// Deliver this queued value (its demand is already reserved).
    case deliver(Output)
    /// Deliver the subject's current value (its demand is already reserved).
    case deliverCurrentValue
    /// Deliver the subject's completion; the conduit is now terminal and must leave the
    /// subject.
    case complete
    /// The subscriber cancelled meanwhile: leave the subject, release downstream and queue.
    case cancelled
    /// Nothing more to do; ownership is given up.
    case idle
  }

  /// The owner's downstream call returned `more`. In the common case (nothing was queued,
  /// cancelled or completed meanwhile, and no current value is owed) this adds `more` to
  /// the demand, gives ownership up and returns `true`. Otherwise it changes nothing and
  /// returns `false`: the owner must ask ``didDeliver(returning:currentGeneration:)``.
  @inlinable
  @inline(__always)
  internal mutating func finishDelivery(returning more: Subscribers.Demand) -> Bool {
    guard !isTerminal, !owesCurrentValue, pending.isEmpty, !isCompletionPending else { return false }
    if more != .none {
      demand += more
    }
    isDelivering = false
    return true
  }

  /// The owner's downstream call returned `more`: adds it to the demand and says what to
  /// deliver next, giving ownership up when there is nothing left.
  ///
  /// - Parameter currentGeneration: The generation of the subject's current value.
  @inlinable
  @inline(__always)
  internal mutating func didDeliver(returning more: Subscribers.Demand, currentGeneration: UInt64) -> NextStep {
    if isTerminal {
      isDelivering = false
      return .cancelled
    }
    if more != .none {
      demand += more
    }
    if pendingHead < pending.count {
      return .deliver(popPending())
    }
    if isCompletionPending {
      isDelivering = false
      if isSubscribing {
        // The subscriber is still in `receive(subscription:)` (this delivery answered a
        // request made there): `finishSubscribing()` delivers the completion.
        return .idle
      }
      isCompletionPending = false
      isTerminal = true
      return .complete
    }
    if owesCurrentValue && demand != .none {
      owesCurrentValue = false
      demand -= 1
      takenGeneration = currentGeneration
      return .deliverCurrentValue
    }
    isDelivering = false
    return .idle
  }

  /// Whether nothing but a value's delivery needs deciding for this subscriber: demand
  /// unlimited, no owner, nothing queued, not cancelled or completing (a condition of the
  /// subject's lone-subscriber lane, `SubjectLane`).
  @inlinable
  internal var isLaneEligible: Bool {
    demand == .unlimited && !isDelivering && !isTerminal && !isCompletionPending && pending.isEmpty
  }

  /// The subscriber of a subject that keeps no current value requested `more`:
  /// ``request(_:currentGeneration:)`` when nothing can be owed.
  @inlinable
  @inline(__always)
  internal mutating func addDemand(_ more: Subscribers.Demand) {
    if !isTerminal {
      demand += more
    }
  }

  /// The subscriber requested `more`. Returns `true` if the caller now owns delivery and
  /// must deliver the subject's current value (its demand is already reserved).
  ///
  /// - Parameter currentGeneration: The generation of the subject's current value.
  @inlinable
  internal mutating func request(_ more: Subscribers.Demand, currentGeneration: UInt64) -> Bool {
    if isTerminal { return false }
    demand += more
    guard !isDelivering, owesCurrentValue, !isCompletionPending else { return false }
    owesCurrentValue = false
    demand -= 1
    takenGeneration = currentGeneration
    isDelivering = true
    return true
  }

  /// The subscriber cancelled. Returns `true` if the caller must remove the conduit from
  /// the subject and release its downstream now; if a thread owns delivery, that owner
  /// does it when the downstream returns.
  @inlinable
  internal mutating func cancel() -> Bool {
    if isTerminal { return false }
    isTerminal = true
    isCompletionPending = false
    return !isDelivering
  }

  /// The subject completed (and recorded its completion in `SubjectState.completion`).
  /// Returns `true` if the caller must deliver the completion now; if a thread owns
  /// delivery, the completion is queued after the pending values, and while the
  /// subscriber is still receiving its subscription it waits for that to return.
  @inlinable
  internal mutating func complete() -> Bool {
    if isTerminal { return false }
    if isDelivering || isSubscribing {
      isCompletionPending = true
      return false
    }
    isTerminal = true
    return true
  }

  /// The subscriber returned from `receive(subscription:)`. Returns `true` if the caller
  /// must now deliver a completion that arrived meanwhile (an owner, if any, delivers it
  /// itself when it finishes).
  @inlinable
  internal mutating func finishSubscribing() -> Bool {
    isSubscribing = false
    guard isCompletionPending, !isDelivering, !isTerminal else { return false }
    isCompletionPending = false
    isTerminal = true
    return true
  }

  /// Empties the queue and hands its storage to the caller, to be released outside the lock.
  @inlinable
  internal mutating func takePending() -> [Output?] {
    defer {
      pending = []
      pendingHead = 0
    }
    return pending
  }

  @inlinable
  internal mutating func popPending() -> Output {
    let value = pending[pendingHead].take().unsafelyUnwrapped
    pendingHead += 1
    if pendingHead == pending.count {
      // Only empty slots remain: reuse the buffer, so steady contention allocates nothing.
      pending.removeAll(keepingCapacity: true)
      pendingHead = 0
    }
    return value
  }
}
