/// The state machine of `zip` over two upstreams: buffers per side, pairs values one for
/// one, serialises delivery, and decides completion. Its transitions return what the
/// storage class must do once the lock is released.
@usableFromInline
internal struct ZipState<A, B, Downstream: Subscriber> where Downstream.Input == (A, B) {
  @usableFromInline
  internal enum Next {
    case idle
    /// Deliver the pair (this thread now owns delivery).
    case deliver(Downstream, (A, B))
    /// Send the completion and cancel the given upstreams.
    case complete(Downstream, Subscribers.Completion<Downstream.Failure>, cancelling: [Subscription])
    /// Cancel upstreams only (the delivering thread sends the completion).
    case cancel([Subscription])
  }

  @usableFromInline internal var downstream: Downstream?
  @usableFromInline internal var upstreamA = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var upstreamB = SubscriptionStatus.awaitingSubscription
  @usableFromInline internal var bufferA = ZipBuffer<A>()
  @usableFromInline internal var bufferB = ZipBuffer<B>()
  @usableFromInline internal var finishedA = false
  @usableFromInline internal var finishedB = false
  @usableFromInline internal var demand = Subscribers.Demand.none
  @usableFromInline internal var isDelivering = false
  @usableFromInline internal var pendingFailure: Downstream.Failure?

  @inlinable
  internal init(downstream: Downstream) {
    self.downstream = downstream
  }

  /// An upstream subscription arrived: returns the demand already owed to it, or `nil` if
  /// it must be cancelled.
  @inlinable
  internal mutating func subscribed(_ side: FanInSide, _ subscription: Subscription) -> Subscribers.Demand? {
    guard downstream != nil else { return nil }
    let accepted = side == .a ? upstreamA.accept(subscription) : upstreamB.accept(subscription)
    return accepted ? demand : nil
  }

  @inlinable
  internal mutating func receiveA(_ value: A) -> Next {
    guard downstream != nil else { return .idle }
    bufferA.append(value)
    return isDelivering ? .idle : nextDelivery()
  }

  @inlinable
  internal mutating func receiveB(_ value: B) -> Next {
    guard downstream != nil else { return .idle }
    bufferB.append(value)
    return isDelivering ? .idle : nextDelivery()
  }

  @inlinable
  internal mutating func finished(_ side: FanInSide) -> Next {
    guard downstream != nil else { return .idle }
    if side == .a { finishedA = true } else { finishedB = true }
    return isDelivering ? .idle : nextDelivery()
  }

  @inlinable
  internal mutating func failed(_ error: Downstream.Failure) -> Next {
    guard let downstream else { return .idle }
    let cancelling = releaseAll()
    if isDelivering {
      pendingFailure = error
      self.downstream = downstream
      return .cancel(cancelling)
    }
    return .complete(downstream, .failure(error), cancelling: cancelling)
  }

  /// Downstream asked for more: returns the upstreams to forward the demand to, and what
  /// to deliver now.
  @inlinable
  internal mutating func request(_ more: Subscribers.Demand) -> ([Subscription], Next) {
    guard downstream != nil else { return ([], .idle) }
    demand += more
    let forward = [upstreamA.subscription, upstreamB.subscription].compactMap { $0 }
    return (forward, isDelivering ? .idle : nextDelivery())
  }

  /// The delivering thread handed over a pair and downstream asked for `more`.
  @inlinable
  internal mutating func didDeliver(additionalDemand more: Subscribers.Demand) -> ([Subscription], Next) {
    isDelivering = false
    if let failure = pendingFailure, let downstream {
      pendingFailure = nil
      self.downstream = nil
      return ([], .complete(downstream, .failure(failure), cancelling: []))
    }
    guard downstream != nil else { return ([], .idle) }
    demand += more
    let forward = more > 0 ? [upstreamA.subscription, upstreamB.subscription].compactMap { $0 } : []
    return (forward, nextDelivery())
  }

  @inlinable
  internal mutating func cancel() -> [Subscription] {
    guard downstream != nil else { return [] }
    return releaseAll()
  }

  @inlinable
  internal mutating func nextDelivery() -> Next {
    guard let downstream else { return .idle }
    if demand > 0, !bufferA.isEmpty, !bufferB.isEmpty {
      demand -= 1
      isDelivering = true
      return .deliver(downstream, (bufferA.removeFirst(), bufferB.removeFirst()))
    }
    // No further pair is possible once a finished side has nothing buffered.
    if (finishedA && bufferA.isEmpty) || (finishedB && bufferB.isEmpty) {
      let cancelling = releaseAll()
      return .complete(downstream, .finished, cancelling: cancelling)
    }
    return .idle
  }

  @inlinable
  internal mutating func releaseAll() -> [Subscription] {
    let cancelling = [upstreamA.terminate(), upstreamB.terminate()].compactMap { $0 }
    bufferA = ZipBuffer()
    bufferB = ZipBuffer()
    downstream = nil
    return cancelling
  }
}

/// A FIFO queue that reuses its storage (no allocation per element once warm).
@usableFromInline
internal struct ZipBuffer<Element> {
  @usableFromInline internal var storage: [Element] = []
  @usableFromInline internal var head = 0

  @inlinable
  internal init() {}

  @inlinable
  internal var isEmpty: Bool { head == storage.count }

  @inlinable
  internal var count: Int { storage.count - head }

  @inlinable
  internal mutating func append(_ element: Element) {
    storage.append(element)
  }

  @inlinable
  internal mutating func removeFirst() -> Element {
    let element = storage[head]
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 64 && head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return element
  }
}
