import Confluence

/// One subscriber's view of a ``ReplaySubject``, seen without the subscriber's type.
/// ``ReplayConduit`` overrides every method.
///
/// `@unchecked Sendable`: the only subclass keeps all its mutable state under its lock.
@usableFromInline
internal class ReplayConduitBase<Output, Failure: Error>: @unchecked Sendable {
  @inlinable
  internal init() {}

  /// Queues a value; called with the subject's lock held (takes only the conduit's lock).
  @inlinable
  internal func enqueue(_ value: Output) {
    fatalError("ReplayConduitBase.enqueue(_:) is overridden")
  }

  /// Queues the completion; called with the subject's lock held.
  @inlinable
  internal func enqueue(completion: Subscribers.Completion<Failure>) {
    fatalError("ReplayConduitBase.enqueue(completion:) is overridden")
  }

  /// Delivers what is queued, if demand allows and no other thread is delivering.
  @inlinable
  internal func deliverPending() {
    fatalError("ReplayConduitBase.deliverPending() is overridden")
  }
}

/// The subscription a ``ReplaySubject`` gives each subscriber; shown as `ReplaySubject` by
/// `print`.
///
/// Values (and the completion) are queued in `pending` under `lock`, in the order the
/// subject took them (the subject queues while holding its own lock; lock order is always
/// subject, then conduit, and neither is held while calling out). One thread at a time
/// delivers: it holds the `isDraining` claim. The subscribing thread holds the claim from
/// the start until the subscriber has its subscription, so nothing reaches the subscriber
/// before that. Values not covered by demand are capped at `bufferSize`, dropping the
/// oldest uncovered one.
@usableFromInline
internal final class ReplayConduit<Downstream: Subscriber>: ReplayConduitBase<Downstream.Input, Downstream.Failure>,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked Sendable: every stored var below is read and written only under `lock`;
  // downstream is called after it is released.
  @usableFromInline internal typealias Output = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  @usableFromInline
  internal enum Step {
    case deliver(Output, Downstream)
    case complete(Subscribers.Completion<Failure>, Downstream?)
    case stop
  }

  @usableFromInline internal weak var subject: ReplaySubject<Output, Failure>?
  @usableFromInline internal let bufferSize: Int
  @usableFromInline internal let lock = Lock()

  // Guarded by `lock`.
  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var pending = FIFOQueue<Output>()
  @usableFromInline internal var pendingCompletion: Subscribers.Completion<Failure>?
  /// Taken by the subscribing thread until the subscriber has its subscription.
  @usableFromInline internal var isDraining = true
  @usableFromInline internal var isEnded = false

  @inlinable
  internal init(subject: ReplaySubject<Output, Failure>, bufferSize: Int, downstream: Downstream) {
    self.subject = subject
    self.bufferSize = bufferSize
    self.downstream = downstream
  }

  /// Starts the queue with the subject's replay buffer; called with the subject's lock held.
  @inlinable
  internal func preload(_ buffer: FIFOQueue<Output>, completion: Subscribers.Completion<Failure>?) {
    lock.withLock {
      pending = buffer
      pendingCompletion = completion
    }
  }

  /// Gives up the subscribing thread's claim, delivering whatever the subscriber asked for
  /// meanwhile.
  @inlinable
  internal func finishSubscribing() {
    drain(returned: .none)
  }

  @inlinable
  internal override func enqueue(_ value: Output) {
    lock.withLock {
      guard !isEnded, pendingCompletion == nil else { return }
      pending.append(value)
      let covered = demand.max ?? Int.max
      if pending.count - covered > bufferSize {
        pending.remove(atOffset: covered)
      }
    }
  }

  @inlinable
  internal override func enqueue(completion: Subscribers.Completion<Failure>) {
    lock.withLock {
      guard !isEnded, pendingCompletion == nil else { return }
      pendingCompletion = completion
    }
  }

  @inlinable
  internal override func deliverPending() {
    let claimed = lock.withLock { () -> Bool in
      guard !isEnded, !isDraining, hasDeliverable else { return false }
      isDraining = true
      return true
    }
    if claimed {
      drain(returned: .none)
    }
  }

  /// Whether a drainer would deliver something now; call with the lock held.
  @inlinable
  internal var hasDeliverable: Bool {
    pending.isEmpty ? pendingCompletion != nil : demand > 0
  }

  /// Delivers queued values while demand lasts, then a queued completion; call while
  /// holding the claim.
  @inlinable
  internal func drain(returned: Subscribers.Demand) {
    var more = returned
    while true {
      let step = lock.withLock { () -> Step in
        guard !isEnded else {
          isDraining = false
          return .stop
        }
        demand += more
        if demand > 0, let downstream, let next = pending.popFirst() {
          demand -= 1
          return .deliver(next, downstream)
        }
        isDraining = false
        if pending.isEmpty, let completion = pendingCompletion {
          isEnded = true
          pendingCompletion = nil
          var target: Downstream?
          swap(&target, &downstream)
          return .complete(completion, target)
        }
        return .stop
      }
      switch step {
      case .deliver(let value, let downstream):
        more = downstream.receive(value)
      case .complete(let completion, let downstream):
        downstream?.receive(completion: completion)
        return
      case .stop:
        return
      }
    }
  }

  // MARK: Subscription

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    demand.assertNonZero()
    let claimed = lock.withLock { () -> Bool in
      guard !isEnded else { return false }
      self.demand += demand
      guard !isDraining, hasDeliverable else { return false }
      isDraining = true
      return true
    }
    if claimed {
      drain(returned: .none)
    }
  }

  @inlinable
  internal func cancel() {
    let released = lock.withLock { () -> (Downstream?, FIFOQueue<Output>)? in
      guard !isEnded else { return nil }
      isEnded = true
      pendingCompletion = nil
      var target: Downstream?
      swap(&target, &downstream)
      var values = FIFOQueue<Output>()
      swap(&values, &pending)
      return (target, values)
    }
    guard released != nil else { return }
    subject?.remove(self)
    // The subscriber and the values waiting for it are released here, outside any lock.
  }

  @usableFromInline internal var description: String { "ReplaySubject" }

  @usableFromInline internal var customMirror: Mirror {
    let (demand, waiting) = lock.withLock { (self.demand, pending.count) }
    return Mirror(self, children: ["demand": demand, "waiting": waiting])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}
