import Confluence

/// What a ``Publishers/Create/Emitter`` sends into: the subscription, seen without its
/// downstream type. ``CreateSubscription`` overrides both methods.
///
/// `@unchecked Sendable`: the only subclass keeps all its mutable state under a lock (see
/// there); this class itself has no state.
@usableFromInline
internal class CreateSink<Output, Failure: Error>: @unchecked Sendable {
  @inlinable
  internal init() {}

  @inlinable
  internal func send(_ input: Output) {
    fatalError("CreateSink.send(_:) is overridden")
  }

  @inlinable
  internal func send(completion: Subscribers.Completion<Failure>) {
    fatalError("CreateSink.send(completion:) is overridden")
  }
}

/// The subscription of ``Publishers/Create``; shown as `Create` by `print`.
///
/// One thread at a time *drains*: it holds the `isDraining` claim (taken and given up under
/// `lock`) and hands values, then the completion, to downstream outside the lock. A send or
/// request that finds another thread draining (or the same thread, re-entrantly from inside
/// downstream's `receive`) only updates the buffer or the demand under the lock; the drainer
/// picks that up before giving up the claim. So downstream sees one event at a time, in
/// order, and nothing is lost or delivered beyond demand.
///
/// The fast path — a value sent while nobody drains, nothing is buffered and demand is
/// outstanding — goes straight to downstream with no buffering.
@usableFromInline
internal final class CreateSubscription<Downstream: Subscriber>: CreateSink<Downstream.Input, Downstream.Failure>,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked Sendable: every stored property below is read and written only
  // under `lock`; downstream and the hook are called only after it is released.
  @usableFromInline internal typealias Output = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure

  /// The next thing a drainer does, decided under the lock.
  @usableFromInline
  internal enum Step {
    case deliver(Output, Downstream)
    case complete(Subscribers.Completion<Failure>, Downstream?, (any Cancellable)?)
    case stop
  }

  @usableFromInline
  internal enum Hook {
    /// The producing closure has not returned yet.
    case pending
    case installed(any Cancellable)
    /// Called (or handed to a caller to call), or never to be called.
    case spent
  }

  @usableFromInline internal let lock = Lock()

  // Guarded by `lock`.
  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var buffer = FIFOQueue<Output>()
  /// A completion sent while values were buffered or a drainer was busy.
  @usableFromInline internal var pendingCompletion: Subscribers.Completion<Failure>?
  /// The producer has sent its completion: later sends are ignored.
  @usableFromInline internal var isProducerDone = false
  /// Downstream received the completion, or cancelled.
  @usableFromInline internal var isEnded = false
  @usableFromInline internal var isDraining = false
  @usableFromInline internal var hook = Hook.pending

  @inlinable
  internal init(downstream: Downstream) {
    self.downstream = downstream
  }

  /// Subscribes downstream, then runs the producing closure and installs its hook (or
  /// calls it at once if the subscription ended meanwhile).
  @inlinable
  internal func start(_ producer: (Publishers.Create<Output, Failure>.Emitter) -> any Cancellable) {
    guard let downstream = lock.withLock({ downstream }) else { return }
    downstream.receive(subscription: self)
    guard !lock.withLock({ isEnded }) else { return }
    let cancellable = producer(Publishers.Create<Output, Failure>.Emitter(sink: self))
    let runNow = lock.withLock { () -> Bool in
      guard case .pending = hook else { return false }
      if isEnded {
        hook = .spent
        return true
      }
      hook = .installed(cancellable)
      return false
    }
    if runNow {
      cancellable.cancel()
    }
  }

  /// What ``end()`` takes: a structure, not a tuple. A tuple of generic types is made by the
  /// runtime at run time in code the compiler did not specialise, and two threads making it
  /// at once can read it before it is complete (ARCHITECTURE.md, "Speed", tells how that
  /// crashed `flatMap`).
  @usableFromInline
  internal struct Ending {
    @usableFromInline internal let downstream: Downstream?
    @usableFromInline internal let hook: (any Cancellable)?
    @usableFromInline internal let released: FIFOQueue<Output>

    @inlinable
    internal init(downstream: Downstream?, hook: (any Cancellable)?, released: FIFOQueue<Output>) {
      self.downstream = downstream
      self.hook = hook
      self.released = released
    }
  }

  /// Marks the subscription ended and takes what it must let go of; call with the lock held.
  @inlinable
  internal func end() -> Ending {
    isEnded = true
    isProducerDone = true
    pendingCompletion = nil
    var released = FIFOQueue<Output>()
    swap(&released, &buffer)
    var target: Downstream?
    swap(&target, &downstream)
    // A pending hook is called by `start` when the closure returns.
    guard case .installed(let cancellable) = hook else {
      return Ending(downstream: target, hook: nil, released: released)
    }
    hook = .spent
    return Ending(downstream: target, hook: cancellable, released: released)
  }

  // MARK: Producer side

  @inlinable
  internal override func send(_ input: Output) {
    let target = lock.withLock { () -> Downstream? in
      guard !isProducerDone else { return nil }
      guard !isDraining, buffer.isEmpty, demand > 0, let downstream else {
        buffer.append(input)
        return nil
      }
      demand -= 1
      isDraining = true
      return downstream
    }
    guard let target else { return }
    drain(returned: target.receive(input))
  }

  @inlinable
  internal override func send(completion: Subscribers.Completion<Failure>) {
    let ending = lock.withLock { () -> Ending? in
      guard !isProducerDone else { return nil }
      isProducerDone = true
      if isDraining || !buffer.isEmpty {
        pendingCompletion = completion
        return nil
      }
      return end()
    }
    guard let ending else { return }
    ending.downstream?.receive(completion: completion)
    ending.hook?.cancel()
  }

  // MARK: Draining

  /// Delivers buffered values while demand lasts, then a pending completion; call while
  /// holding the drain claim. `returned` is the demand downstream returned from the value
  /// this thread just delivered.
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
        if demand > 0, let downstream, let next = buffer.popFirst() {
          demand -= 1
          return .deliver(next, downstream)
        }
        if buffer.isEmpty, let completion = pendingCompletion {
          isDraining = false
          let ending = end()
          return .complete(completion, ending.downstream, ending.hook)
        }
        isDraining = false
        return .stop
      }
      switch step {
      case .deliver(let value, let downstream):
        more = downstream.receive(value)
      case .complete(let completion, let downstream, let hook):
        downstream?.receive(completion: completion)
        hook?.cancel()
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
    let drains = lock.withLock { () -> Bool in
      guard !isEnded else { return false }
      self.demand += demand
      guard !isDraining, !buffer.isEmpty || pendingCompletion != nil else { return false }
      isDraining = true
      return true
    }
    if drains {
      drain(returned: .none)
    }
  }

  @inlinable
  internal func cancel() {
    let ending = lock.withLock { () -> Ending? in
      guard !isEnded else { return nil }
      return end()
    }
    // Downstream and the buffered values are released here, outside the lock.
    ending?.hook?.cancel()
  }

  @usableFromInline internal var description: String { "Create" }

  @usableFromInline internal var customMirror: Mirror {
    let (demand, buffered) = lock.withLock { (self.demand, buffer.count) }
    return Mirror(self, children: ["demand": demand, "buffered": buffered])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}
