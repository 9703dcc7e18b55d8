/// What distinguishes `zip` from `combineLatest`: how values of the two upstreams are
/// kept, when an output is ready, and when no further output is possible.
@usableFromInline
internal protocol BinaryFanInLogic {
  associatedtype A
  associatedtype B

  init()

  /// What `print` shows for the subscription.
  static var name: String { get }

  /// Whether a ready output is delivered once beyond downstream's demand (Apple's `zip`,
  /// whose demand count may go one below zero: with upstreams that send more than they
  /// were asked for, one extra tuple goes downstream, the next waits for demand).
  static var deliversOneBeyondDemand: Bool { get }

  /// A value arrived. `whileDelivering`: another delivery is in progress (on another
  /// thread, or further up this one's stack), and the value is seen after it returns, in
  /// arrival order, as if it had waited for it.
  mutating func receive(a: A, whileDelivering: Bool)
  mutating func receive(b: B, whileDelivering: Bool)

  /// Downstream has no demand left: what is kept for it is reduced to what Apple's operator
  /// keeps without demand.
  mutating func keepForLaterDemand()

  /// Whether outputs wait behind the newest one that ``keepForLaterDemand()`` would drop
  /// (the owner must then look at the state before letting go of delivery).
  var hasOutputsBehindNewest: Bool { get }

  /// The next output, if one is ready; taking it consumes it.
  mutating func takeOutput() -> (A, B)?

  /// Whether ``takeOutput()`` would return an output. (`mutating` only so that the state
  /// reaches it in place rather than through a copy of the logic.)
  mutating func hasOutput() -> Bool

  /// Whether no further output can come, given which upstreams have finished.
  func isDone(finishedA: Bool, finishedB: Bool) -> Bool

  /// Whether the operator still holds values (reported by the mirror).
  var heldValueCount: Int { get }
}

/// `zip`: a FIFO per upstream, paired one for one; done once a finished side is drained.
@usableFromInline
internal struct ZipLogic<A, B>: BinaryFanInLogic {
  @usableFromInline internal var bufferA = FIFOQueue<A>()
  @usableFromInline internal var bufferB = FIFOQueue<B>()

  @inlinable internal init() {}

  @inlinable internal static var name: String { "Zip" }
  @inlinable internal static var deliversOneBeyondDemand: Bool { true }

  @inlinable @inline(__always) internal mutating func receive(a: A, whileDelivering: Bool) { bufferA.append(a) }
  @inlinable @inline(__always) internal mutating func receive(b: B, whileDelivering: Bool) { bufferB.append(b) }
  @inlinable @inline(__always) internal mutating func keepForLaterDemand() {}
  @inlinable internal var hasOutputsBehindNewest: Bool { false }

  @inlinable
  @inline(__always)
  internal mutating func takeOutput() -> (A, B)? {
    guard !bufferA.isEmpty, !bufferB.isEmpty else { return nil }
    return (bufferA.removeFirst(), bufferB.removeFirst())
  }

  @inlinable
  internal mutating func hasOutput() -> Bool { !bufferA.isEmpty && !bufferB.isEmpty }

  @inlinable
  internal func isDone(finishedA: Bool, finishedB: Bool) -> Bool {
    (finishedA && bufferA.isEmpty) || (finishedB && bufferB.isEmpty)
  }

  @inlinable internal var heldValueCount: Int { bufferA.count + bufferB.count }
}

/// `combineLatest`: the latest value of each side, and the newest combination not yet
/// delivered (several changes without demand coalesce into it, as Apple's buffer of one per
/// upstream does). Combinations formed while a delivery is in progress (another thread's,
/// or re-entrantly from inside downstream's `receive(_:)`) wait in order behind it instead
/// of coalescing: with demand, Apple's operator delivers one combination per value, and
/// drops only when demand runs out. Done when both sides have finished and nothing waits.
@usableFromInline
internal struct CombineLatestLogic<A, B>: BinaryFanInLogic {
  @usableFromInline internal var latestA: A?
  @usableFromInline internal var latestB: B?
  /// Whether the newest combination, (`latestA`, `latestB`), is not delivered yet.
  @usableFromInline internal var hasUndeliveredChange = false
  /// Older combinations formed during a delivery, oldest first (all older than the newest).
  @usableFromInline internal var earlier = FIFOQueue<(A, B)>()

  @inlinable internal init() {}

  @inlinable internal static var name: String { "CombineLatest" }
  @inlinable internal static var deliversOneBeyondDemand: Bool { false }

  @inlinable
  @inline(__always)
  internal mutating func receive(a: A, whileDelivering: Bool) {
    if whileDelivering { keepNewestForLater() }
    latestA = a
    hasUndeliveredChange = latestB != nil
  }

  @inlinable
  @inline(__always)
  internal mutating func receive(b: B, whileDelivering: Bool) {
    if whileDelivering { keepNewestForLater() }
    latestB = b
    hasUndeliveredChange = latestA != nil
  }

  /// A value arrives during a delivery: the combination it replaces as the newest, if not
  /// delivered yet, waits its turn.
  @inlinable
  internal mutating func keepNewestForLater() {
    if hasUndeliveredChange, let a = latestA, let b = latestB {
      earlier.append((a, b))
    }
  }

  @inlinable
  @inline(__always)
  internal mutating func takeOutput() -> (A, B)? {
    if !earlier.isEmpty { return earlier.removeFirst() }
    guard hasUndeliveredChange, let a = latestA, let b = latestB else { return nil }
    hasUndeliveredChange = false
    return (a, b)
  }

  @inlinable
  internal mutating func hasOutput() -> Bool { hasUndeliveredChange }

  @inlinable internal var hasOutputsBehindNewest: Bool { !earlier.isEmpty }

  @inlinable
  internal mutating func keepForLaterDemand() {
    while !earlier.isEmpty { _ = earlier.removeFirst() }
  }

  @inlinable
  internal func isDone(finishedA: Bool, finishedB: Bool) -> Bool {
    finishedA && finishedB && !hasUndeliveredChange
  }

  @inlinable internal var heldValueCount: Int { (latestA == nil ? 0 : 1) + (latestB == nil ? 0 : 1) }
}
