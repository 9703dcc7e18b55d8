/// The storage and driver of `buffer`; shown as `Buffer` by `print`.
@usableFromInline
internal final class BufferSubscription<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline internal typealias Input = Downstream.Input
  @usableFromInline internal typealias Failure = Downstream.Failure
  @usableFromInline internal typealias State = BufferState<Downstream>

  @usableFromInline internal let lock = Lock()
  /// Guarded by `lock`.
  @usableFromInline internal var state: State
  @usableFromInline internal let whenFull: Publishers.BufferingStrategy<Failure>
  @usableFromInline internal let prefetch: Publishers.PrefetchStrategy

  @inlinable
  internal init(
    downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
    whenFull: Publishers.BufferingStrategy<Failure>
  ) {
    state = State(downstream: downstream, size: size, keepsFull: prefetch == .keepFull)
    self.whenFull = whenFull
    self.prefetch = prefetch
  }

  @inlinable
  internal func receive(subscription: Subscription) {
    let downstream = lock.withLock { state.upstream.accept(subscription) ? state.downstream : nil }
    guard let downstream else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
    if prefetch == .keepFull, state.size > 0 {
      subscription.request(.max(state.size))
    }
  }

  @inlinable
  internal func receive(_ input: Input) -> Subscribers.Demand {
    perform(lock.withLock { state.receive(input, whenFull: whenFull) })
    return .none
  }

  @inlinable
  internal func receive(completion: Subscribers.Completion<Failure>) {
    perform(lock.withLock { state.upstreamCompleted(completion) })
  }

  @inlinable
  internal func request(_ demand: Subscribers.Demand) {
    // As Apple's: `.none` is accepted (it adds nothing), not trapped.
    let (forward, next) = lock.withLock { state.request(demand) }
    forward?.request(demand)
    perform(next)
  }

  @inlinable
  internal func cancel() {
    lock.withLock { state.cancel() }?.cancel()
  }

  @inlinable
  internal func perform(_ next: State.Next) {
    var next = next
    while true {
      switch next {
      case .idle:
        return
      case .cancel(let upstream):
        upstream?.cancel()
        return
      case .overflow(let makeError):
        let error = makeError()
        next = lock.withLock { state.fail(error) }
      case .complete(let downstream, let completion, let upstream):
        upstream?.cancel()
        downstream.receive(completion: completion)
        return
      case .deliver(let downstream, let value, let replenish):
        let more = downstream.receive(value)
        replenish?.request(.max(1))
        let (forward, following) = lock.withLock { state.didDeliver(additionalDemand: more) }
        forward?.request(more)
        next = following
      }
    }
  }

  @usableFromInline internal var description: String { "Buffer" }

  @usableFromInline
  internal var customMirror: Mirror {
    Mirror(self, children: ["buffered": lock.withLock { state.buffer.count }])
  }

  @usableFromInline internal var playgroundDescription: Any { description }
}
