import CConfluenceSystem

/// The subscription of ``Publishers/Buffer``; the rules are ``BufferState``'s. Shown as
/// "Buffer"; its mirror shows `values`, `state`, `downstreamDemand` and `terminal`, as
/// Apple's does.
///
/// No lock is held while calling upstream, the downstream or the `customError` closure.
@usableFromInline
internal final class BufferSubscription<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure
  @usableFromInline internal typealias State = BufferState<Downstream>

  @usableFromInline internal let downstream: Downstream
  @usableFromInline internal let lock = Lock()
  @usableFromInline internal var state: State  // guarded by `lock`
  @usableFromInline internal let whenFull: Publishers.BufferingStrategy<Failure>
  @usableFromInline internal let prefetch: Publishers.PrefetchStrategy

  @inlinable
  internal init(
    downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
    whenFull: Publishers.BufferingStrategy<Failure>
  ) {
    self.downstream = downstream
    state = State(size: size, keepsFull: prefetch == .keepFull)
    self.whenFull = whenFull
    self.prefetch = prefetch
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    guard lock.withLock({ state.upstream.accept(subscription) }) else {
      subscription.cancel()
      return
    }
    // As Apple's: upstream is asked first, then the downstream is handed the subscription.
    switch prefetch {
    case .keepFull:
      let size = lock.withLock { state.size }
      if size > 0 { subscription.request(.max(size)) }
    case .byRequest:
      subscription.request(.unlimited)
    @unknown default:
      subscription.request(.unlimited)
    }
    downstream.receive(subscription: self)
    lock.withLock { state.isDownstreamSubscribed = true }
    // Whatever upstream sent in answer to the first request (a failure, or values the
    // downstream asked for meanwhile) is delivered now.
    afterDrain(drain())
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    switch lock.withLock({ state.receive(input, whenFull: whenFull) }) {
    case .ignore:
      return .none
    case .drain:
      let drained = drain()
      let released = lock.withLock { state.takeUpstreamIfOverflowFailureDelivered() }
      _fixLifetime(released)
      return prefetch == .keepFull && drained > 0 ? .max(drained) : .none
    case .overflow(let makeError):
      let error = makeError()
      lock.withLock { state.overflowed(with: error) }?.cancel()
      return .none
    }
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    switch lock.withLock({ state.upstreamCompleted(completion) }) {
    case .ignore:
      return
    case .drain:
      _ = drain()
    case .deliverFailure(let released):
      _fixLifetime(released)
      downstream.receive(completion: completion)
    }
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    // As Apple's: `.none` is accepted (it adds nothing), not trapped.
    lock.withLock { state.demand += demand }
    afterDrain(drain())
  }

  /// Asks upstream again for what a drain took out (`.keepFull`), then lets the upstream
  /// subscription go if the drain delivered the overflow error.
  @inlinable
  internal func afterDrain(_ drained: Int) {
    let (replenish, released) = lock.withLock {
      (state.replenishing(drained), state.takeUpstreamIfOverflowFailureDelivered())
    }
    replenish?.request(.max(drained))
    _fixLifetime(released)
  }

  @inlinable
  internal func cancel() {
    lock.withLock { () -> SubscriptionStatus in
      guard case .subscribed = state.upstream else { return .awaitingSubscription }
      state.isCancelled = true
      state.values = FIFOQueue()
      return state.upstream.take()
    }.cancelSubscription()
  }

  /// Delivers what the demand allows; returns how many values left the buffer. A drain
  /// already running (this is a re-entrant call) is left to do the work.
  @inlinable
  internal func drain() -> Int {
    guard
      lock.withLock({ () -> Bool in
        if state.isDraining { return false }
        state.drainingThread = confluence_thread_token()
        return true
      })
    else { return 0 }
    var drained = 0
    while true {
      switch lock.withLock({ () -> State.Step in
        let step = state.nextStep()
        if case .deliver = step {} else { state.drainingThread = 0 }
        return step
      }) {
      case .deliver(let value):
        drained += 1
        let more = downstream.receive(value)
        if more != .none { lock.withLock { state.demand += more } }
      case .complete(let completion, let released):
        _fixLifetime(released)
        downstream.receive(completion: completion)
        return drained
      case .done:
        return drained
      }
    }
  }

  @usableFromInline internal var description: String { "Buffer" }

  @usableFromInline
  internal var customMirror: Mirror {
    let (values, status, demand, terminal) = lock.withLock {
      (state.values.elements, state.upstream.subscription, state.demand, state.terminal)
    }
    let shownState: Any = status.map { "subscribed(\($0))" } ?? "awaitingSubscription"
    return Mirror(
      self, children: ["values": values, "state": shownState, "downstreamDemand": demand, "terminal": terminal as Any])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}
