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
// thread that sends while the conduit is owned reserves demand for its value too
// (`reservedCount`), waits until ownership is given up, claims it
// (``claimReserved(byOwnerThread:)``) and delivers its value itself, as a send to Apple's
// subjects returns only once its value was delivered, on the sender's thread.
//
// A value's fate for a subscriber is decided once, when it is offered: accepted (one unit
// of demand reserved for it, so it will be delivered unless the subscriber cancels) or
// declined (no demand, cancelled, completed). What is accepted is delivered exactly once;
// a completion waits for every accepted value (`reservedCount` and `pending`).
//
// `CurrentValueSubject`: a subscriber that declined the newest value for want of demand
// (or has not been handed one since it subscribed) is owed the current value, which its
// next demand delivers. The subject offers a value to every subscriber in the critical
// section that makes it current (`SubjectState.sendKeepingCurrentValue`), so "owed" always means "the current
// value was declined here": the current value a request hands over is never also on its
// way to the same subscriber from a sender.
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

  /// Values accepted for senders on other threads that wait for the owner to give
  /// ownership up (their demand is reserved): each sender claims ownership in turn
  /// (``claimReserved(byOwnerThread:)``) and delivers its own value. A completion waits
  /// until every one of them has.
  @usableFromInline
  internal var reservedCount = 0

  /// Values sent while another thread owned delivery; demand for each is already reserved.
  /// Delivered slots are emptied (set to `nil`) so that nothing is released under the lock.
  /// (Empty through `emptyArrayOfOptionals()`: `[]` looked `Optional<Output>` up where a
  /// subscription is made by code the compiler did not specialise.)
  @usableFromInline
  internal var pending: [Output?]

  /// Whether ``pending`` holds any slot (`!pending.isEmpty`), kept apart so that code the
  /// compiler did not specialise answers it without looking `[Output?]`'s type up (the
  /// lane's eligibility, a cancel).
  @usableFromInline
  internal var hasPendingValues = false

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
  @inline(__always)
  internal init(owesCurrentValue: Bool) {
    self.owesCurrentValue = owesCurrentValue
    // Set here, not by a default value, which became a function of its own.
    self.pending = emptyArrayOfOptionals()
  }

  // MARK: Transitions

  /// What became of a value offered to this subscriber.
  @usableFromInline
  internal enum OfferOutcome {
    /// The caller now owns delivery and must deliver the value.
    case owned
    /// Queued behind the caller's own delivery (a re-entrant send; demand reserved), or
    /// dropped (no demand, cancelled, completing).
    case done
    /// Another thread owns delivery: demand is reserved for the value; the caller waits
    /// for ownership to be given up and claims it (``claimReserved(byOwnerThread:)``).
    case reserved
  }

  /// A value was sent (or, for `CurrentValueSubject`, became current). Accepts it if the
  /// subscriber has demand — delivery by the caller, or queued behind the owner if the
  /// caller is the owner's thread (`byOwnerThread`, only read when owned), or reserved
  /// for the caller to deliver once the owner on another thread is done — or declines it.
  ///
  /// - Parameters:
  ///   - keepsCurrentValue: `true` for `CurrentValueSubject`, whose subscribers receive
  ///     the then-current value once demand arrives instead of losing it.
  ///   - mayOwn: `false` to reserve instead of taking ownership when nobody owns delivery
  ///     (a `CurrentValueSubject` deciding for all its subscribers at once, whose sender
  ///     then claims each in turn).
  @inlinable
  @inline(__always)
  internal mutating func offer(
    _ value: Output, keepsCurrentValue: Bool, byOwnerThread: @autoclosure () -> Bool, mayOwn: Bool = true
  ) -> OfferOutcome {
    // The common case first: nobody owns delivery (so nothing is queued and no completion
    // is pending), the subscriber is live and has demand.
    if !keepsCurrentValue && mayOwn && !isDelivering && !isTerminal && demand != .none {
      demand -= 1
      isDelivering = true
      return .owned
    }
    return offerInEveryCase(value, keepsCurrentValue: keepsCurrentValue, byOwnerThread: byOwnerThread(), mayOwn: mayOwn)
  }

  /// ``offer(_:keepsCurrentValue:byOwnerThread:mayOwn:)`` in every case.
  @inlinable
  internal mutating func offerInEveryCase(
    _ value: Output, keepsCurrentValue: Bool, byOwnerThread: @autoclosure () -> Bool, mayOwn: Bool
  ) -> OfferOutcome {
    if isTerminal || isCompletionPending { return .done }
    if demand == .none {
      if keepsCurrentValue { owesCurrentValue = true }
      return .done
    }
    demand -= 1
    owesCurrentValue = false
    if isDelivering {
      if byOwnerThread() {
        pending.append(value)
        hasPendingValues = true
        return .done
      }
      reservedCount += 1
      return .reserved
    }
    if !mayOwn {
      reservedCount += 1
      return .reserved
    }
    isDelivering = true
    return .owned
  }

  /// A sender whose value was accepted while another thread owned delivery
  /// (``OfferOutcome/reserved``) asks again. Returns `.owned` if the caller now owns
  /// delivery and must deliver its value, `.reserved` if the conduit is still owned by
  /// another thread (ask again later), or `.done` if the value needs nothing more: the
  /// subscriber cancelled (the value is dropped), or the caller's thread owns delivery
  /// (the value was queued; `queue` is called with nothing else changed).
  @inlinable
  internal mutating func claimReserved(byOwnerThread: @autoclosure () -> Bool, queue: (inout [Output?]) -> Void)
    -> OfferOutcome
  {
    if isTerminal {
      reservedCount -= 1
      return .done
    }
    if isDelivering {
      guard byOwnerThread() else { return .reserved }
      reservedCount -= 1
      queue(&pending)
      hasPendingValues = !pending.isEmpty
      return .done
    }
    reservedCount -= 1
    isDelivering = true
    return .owned
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
  /// the demand, gives ownership up (to a waiting sender, if any) and returns `true`. Otherwise it changes nothing and
  /// returns `false`: the owner must ask ``didDeliver(returning:)``.
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
  /// deliver next, giving ownership up when there is nothing left (a completion waits for
  /// the values reserved by waiting senders: the last of them delivers it).
  @inlinable
  @inline(__always)
  internal mutating func didDeliver(returning more: Subscribers.Demand) -> NextStep {
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
      if isSubscribing || reservedCount > 0 {
        // The subscriber is still in `receive(subscription:)` (this delivery answered a
        // request made there): `finishSubscribing()` delivers the completion. Or senders
        // on other threads wait to deliver values accepted before the completion: the
        // last of them delivers it.
        return .idle
      }
      isCompletionPending = false
      isTerminal = true
      return .complete
    }
    if owesCurrentValue && demand != .none {
      owesCurrentValue = false
      demand -= 1
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
    // Always inlined: called where the compiler did not specialise the conduit, it looked
    // this struct's metadata up in the runtime's cache on every request.
    // `mutating`, and conditions rather than `&&`: an unoptimised build copied the whole state to
    // call a getter that is not, and again into each `&&`'s closure.
    @inline(__always) mutating get {
      guard demand == .unlimited, !isDelivering, !isTerminal, !isCompletionPending, reservedCount == 0
      else { return false }
      return !hasPendingValues
    }
  }

  /// The subscriber of a subject that keeps no current value requested `more`:
  /// ``request(_:)`` when nothing can be owed.
  @inlinable
  @inline(__always)
  internal mutating func addDemand(_ more: Subscribers.Demand) {
    if !isTerminal {
      demand += more
    }
  }

  /// The subscriber requested `more`. Returns `true` if the caller now owns delivery and
  /// must deliver the subject's current value (its demand is already reserved).
  @inlinable
  @inline(__always)
  internal mutating func request(_ more: Subscribers.Demand) -> Bool {
    if isTerminal { return false }
    demand += more
    guard !isDelivering, owesCurrentValue, !isCompletionPending else { return false }
    owesCurrentValue = false
    demand -= 1
    isDelivering = true
    return true
  }

  /// The subscriber cancelled. Returns `true` if the caller must remove the conduit from
  /// the subject and release its downstream now; if a thread owns delivery, that owner
  /// does it when the downstream returns.
  @inlinable
  @inline(__always)
  internal mutating func cancel() -> Bool {
    if isTerminal { return false }
    isTerminal = true
    isCompletionPending = false
    return !isDelivering
  }

  /// The subject completed (and recorded its completion in `SubjectState.completion`).
  /// Returns `true` if the caller must deliver the completion now; if a thread owns
  /// delivery, or senders wait to deliver values accepted before it, the completion is
  /// queued after those values, and while the subscriber is still receiving its
  /// subscription it waits for that to return.
  @inlinable
  internal mutating func complete() -> Bool {
    if isTerminal { return false }
    if isDelivering || isSubscribing || reservedCount > 0 {
      isCompletionPending = true
      return false
    }
    isTerminal = true
    return true
  }

  /// What the subscriber's return from `receive(subscription:)` leaves to do
  /// (``finishSubscribing()``).
  @usableFromInline
  @frozen
  internal enum SubscribingEnd {
    /// Nothing: the conduit serves on, or an owner finishes what is left when it returns.
    case serving
    /// Deliver the completion that arrived meanwhile, and leave the subject.
    case complete
    /// The subscriber cancelled meanwhile: leave the subject, which kept the conduit listed
    /// until now (see `SubjectStorage.remove(_:)`).
    case leave
  }

  /// The subscriber returned from `receive(subscription:)`. Says whether the caller must now
  /// deliver a completion that arrived meanwhile, or take the conduit off the subject's list
  /// after a cancel made meanwhile; an owner, if any, does either itself when it finishes.
  @inlinable
  @inline(__always)
  internal mutating func finishSubscribing() -> SubscribingEnd {
    isSubscribing = false
    guard isCompletionPending || isTerminal, !isDelivering else { return .serving }
    // Terminal while the subscriber was in `receive(subscription:)` means cancelled: a
    // completion that arrives then is queued (and a cancel clears it).
    if isTerminal { return .leave }
    guard reservedCount == 0 else { return .serving }
    isCompletionPending = false
    isTerminal = true
    return .complete
  }

  /// Empties the queue and hands its storage to the caller, to be released outside the lock.
  @inlinable
  internal mutating func takePending() -> [Output?] {
    defer {
      pending = emptyArrayOfOptionals()
      pendingHead = 0
      hasPendingValues = false
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
      hasPendingValues = false
    }
    return value
  }
}
