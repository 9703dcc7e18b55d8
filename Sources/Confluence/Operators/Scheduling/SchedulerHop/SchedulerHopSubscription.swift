import Synchronization

/// Stands between upstream and downstream for `receive(on:)` and `delay(for:…)`: every value
/// and the completion reach downstream through `Hop`'s scheduler, while demand and cancel
/// pass upstream synchronously.
///
/// Apple's edges, kept here:
/// - a scheduled action holds this subscription, and so the downstream subscriber, strongly
///   until it has run; the subscription holds its downstream for its whole life (neither
///   cancel nor the completion lets go of it);
/// - once the completion has arrived, or after `cancel()`, nothing more is scheduled;
/// - a value whose action runs after `cancel()` is dropped, but a completion that was
///   already scheduled is still delivered;
/// - `cancel()` before the upstream subscription arrives is ignored.
///
/// Each event taken is queued and one action scheduled for it; an action delivers the
/// *oldest* queued event, and only one action is inside downstream at a time: an action
/// that runs while another is delivering leaves its event to that one (`deliveries` counts
/// the actions that have run and whose events are not yet delivered). On a serial
/// scheduler this is the plain order; on a concurrent one (a concurrent `DispatchQueue`)
/// it keeps the events in order and never overlaps two deliveries, so a completion can
/// neither overtake the value before it nor arrive during it.
///
/// The per-event path takes no lock: upstream's thread appends to a single-producer,
/// single-consumer ``SchedulerHopQueue`` and reads one flag; the delivering action removes
/// from the queue, reads one flag and counts in `deliveries`. The lock guards the upstream
/// subscription (demand, cancel, the completion letting go of it). The properties are
/// grouped by who writes them, with padding between the groups, so that the two threads
/// do not share a cache line that either writes for every event.
///
/// The protocol's invariant (every interleaving of an upstream sending two values and the
/// completion, their actions running concurrently, and a cancel, checked by
/// `SchedulerHopModel` in `Tests/ConfluenceInterleavingTests`):
/// - `isTakingEvents` goes from `true` to `false` once, by the completion's
///   compare-and-exchange or by `cancel()`; an event is queued only by upstream's thread
///   after it read `true`, so nothing is queued after the completion, and after a cancel
///   only the event already past its read;
/// - each event is queued *before* its action is scheduled, and each action adds one to
///   `deliveries` before it touches the queue; the action that takes `deliveries` from 0
///   owns delivery and removes one event per count until its own subtraction reaches 0.
///   So one action at a time is inside downstream, every queued event is removed exactly
///   once and only after it was queued (the queue is never empty when removed from), in
///   the order queued, and no event is left behind when the owner stops (an action that
///   adds after the owner's last subtraction becomes the owner);
/// - `isCancelled` is set inside `lock` before `cancel()` returns and read by the owner
///   before each value, so after `cancel()` returned at most the value already past its
///   read is delivered; a completion already queued is still delivered, once.
/// The read-modify-writes on `deliveries` (acquire-release) are also what orders the
/// queue's plain accesses between one owner and the next, and the scheduler orders each
/// `append` before its action. With `CONFLUENCE_LOCKED_FAST_PATHS` the three flags are
/// plain fields under `lock`, and the queue is appended to and removed from inside it.
@usableFromInline
internal final class SchedulerHopSubscription<Downstream: Subscriber, Hop: SchedulerHop>: Subscriber, Subscription {
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  /// A value or the completion, waiting for its scheduled action.
  @usableFromInline
  internal enum Event {
    case value(Input)
    case completion(Subscribers.Completion<Failure>)
  }

  // Beside the object's reference count (which each scheduled action changes): what only
  // the rare paths touch.

  @usableFromInline internal let lock = Lock()
  /// `.terminal` after `cancel()` or once the completion has been delivered (the upstream
  /// subscription is released then; until then demand still goes upstream, as Apple's).
  /// Guarded by `lock` (`@exclusivity(unchecked)`: the lock already serialises every access).
  @exclusivity(unchecked) @usableFromInline internal var status = SubscriptionStatus.awaitingSubscription

  @usableFromInline internal let padding = CacheLinePadding()

  // Read by upstream's thread for every event; written only by the rare paths.

  @usableFromInline internal let hop: Hop
  @usableFromInline internal let queue = SchedulerHopQueue<Event>()
  /// The action, prepared once by a scheduler that can (a `DispatchQueue`), or `nil`. Set
  /// in `init`, never changed. It does not hold `self` (that would be a cycle): each time it
  /// is scheduled, `self` is retained for it, and it releases `self` when it has run, so a
  /// scheduled action still holds the subscription until then, as a closure would.
  @exclusivity(unchecked) @usableFromInline internal var preparedAction: (any PreparedSchedulerAction)?
  #if CONFLUENCE_LOCKED_FAST_PATHS
    /// As below, guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline internal var lockedIsTakingEvents = false
  #else
    /// Subscribed, and neither upstream's completion nor a cancel has arrived: events are
    /// taken. Set under `lock` when the subscription arrives; cleared by the completion (on
    /// upstream's thread) or by `cancel()` (under `lock`).
    @usableFromInline internal let isTakingEvents = Atomic<Bool>(false)
  #endif

  @usableFromInline internal let padding2 = CacheLinePadding()

  // The delivering action's.

  @usableFromInline internal let downstream: Downstream
  #if CONFLUENCE_LOCKED_FAST_PATHS
    /// As below, guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline internal var lockedIsCancelled = false
    @exclusivity(unchecked) @usableFromInline internal var lockedDeliveries = 0
  #else
    /// Whether `cancel()` came after the subscription: queued values are dropped.
    @usableFromInline internal let isCancelled = Atomic<Bool>(false)
    /// Scheduled actions that have run and whose events are not delivered yet; the action
    /// that takes it from 0 delivers until it is back at 0.
    @usableFromInline internal let deliveries = Atomic<Int>(0)
  #endif

  @inlinable
  internal init(downstream: Downstream, hop: Hop) {
    self.downstream = downstream
    self.hop = hop
    preparedAction = hop.prepare { [unowned(unsafe) self] in
      self.runScheduledAction()
      // Balances the retain made when this run was scheduled; may free `self`, so last.
      Unmanaged.passUnretained(self).release()
    }
  }

  /// Schedules one run of the action (whose event is already queued).
  @inlinable
  internal func scheduleAction() {
    if let preparedAction {
      _ = Unmanaged.passUnretained(self).retain()
      preparedAction.schedule()
    } else {
      hop.schedule { self.runScheduledAction() }
    }
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard status.accept(subscription) else { return false }
      #if CONFLUENCE_LOCKED_FAST_PATHS
        lockedIsTakingEvents = true
      #else
        isTakingEvents.store(true, ordering: .releasing)
      #endif
      return true
    }
    guard accepted else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  // The event is queued before its action is scheduled: the action may run at once, on any
  // thread. (A closure capturing only `self` allocates nothing to form.)

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    #if CONFLUENCE_LOCKED_FAST_PATHS
      let taken = lock.withLock { () -> Bool in
        guard lockedIsTakingEvents else { return false }
        queue.append(.value(input))
        return true
      }
      guard taken else { return .none }
    #else
      guard isTakingEvents.load(ordering: .acquiring) else { return .none }
      queue.append(.value(input))
    #endif
    scheduleAction()
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    // Exactly one of the completion and `cancel()` ends the taking of events.
    #if CONFLUENCE_LOCKED_FAST_PATHS
      let taken = lock.withLock { () -> Bool in
        guard lockedIsTakingEvents else { return false }
        lockedIsTakingEvents = false
        queue.append(.completion(completion))
        return true
      }
      guard taken else { return }
    #else
      guard isTakingEvents.compareExchange(expected: true, desired: false, ordering: .acquiringAndReleasing).exchanged
      else { return }
      queue.append(.completion(completion))
    #endif
    scheduleAction()
  }

  /// A scheduled action: delivers the oldest queued event and those of the actions that
  /// run meanwhile, or, if another action is delivering, leaves its event to that one.
  @inlinable
  internal func runScheduledAction() {
    #if CONFLUENCE_LOCKED_FAST_PATHS
      let owns = lock.withLock { () -> Bool in
        lockedDeliveries += 1
        return lockedDeliveries == 1
      }
      guard owns else { return }
      repeat {
        let (event, cancelled) = lock.withLock { (queue.removeFirst(), lockedIsCancelled) }
        deliver(event, cancelled: cancelled)
      } while lock.withLock({ () -> Bool in
        lockedDeliveries -= 1
        return lockedDeliveries != 0
      })
    #else
      guard deliveries.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 else { return }
      repeat {
        switch queue.removeFirst() {
        case .value(let input):
          // A value whose action runs after `cancel()` is dropped.
          if !isCancelled.load(ordering: .acquiring) { deliver(input) }
        case .completion(let completion):
          // Lets go of upstream (without cancelling it): no cycle through a subject's conduit.
          _fixLifetime(lock.withLock { status.take() })
          downstream.receive(completion: completion)
        }
      } while deliveries.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue != 0
    #endif
  }

  #if CONFLUENCE_LOCKED_FAST_PATHS
    /// Delivers one event removed from the queue: a value unless `cancelled`, a completion
    /// always.
    @inlinable
    internal func deliver(_ event: consuming Event, cancelled: Bool) {
      switch event {
      case .value(let input):
        if !cancelled { deliver(input) }
      case .completion(let completion):
        _fixLifetime(lock.withLock { status.take() })
        downstream.receive(completion: completion)
      }
    }
  #endif

  @inlinable
  internal func deliver(_ input: Input) {
    let more = downstream.receive(input)
    guard more > 0 else { return }
    lock.withLock { status }.requestAndRelease(more)
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    // As Apple's (receive(on:), delay): the demand, `.none` included, goes upstream unchecked.
    lock.withLock { status }.requestAndRelease(demand)
  }

  @inlinable
  internal func cancel() {
    let subscription = lock.withLock { () -> Subscription? in
      // Before the subscription Apple ignores a cancel; the subscription is then taken as usual.
      if case .awaitingSubscription = status { return nil }
      #if CONFLUENCE_LOCKED_FAST_PATHS
        lockedIsCancelled = true
        lockedIsTakingEvents = false
      #else
        isCancelled.store(true, ordering: .releasing)
        isTakingEvents.store(false, ordering: .releasing)
      #endif
      return status.terminate()
    }
    subscription?.cancel()
  }
}

/// A hop whose subscription describes itself (`receive(on:)`'s does; `delay`'s does not).
@usableFromInline
internal protocol DescribedSchedulerHop: SchedulerHop {}

extension SchedulerHopSubscription: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Hop: DescribedSchedulerHop {
  @usableFromInline internal var description: String { Hop.name }

  /// As Apple's: no children.
  @usableFromInline internal var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline internal var playgroundDescription: Any { description }
}
