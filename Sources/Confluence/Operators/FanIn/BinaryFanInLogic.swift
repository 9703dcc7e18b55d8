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

  mutating func receive(a: A)
  mutating func receive(b: B)

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

  @inlinable @inline(__always) internal mutating func receive(a: A) { bufferA.append(a) }
  @inlinable @inline(__always) internal mutating func receive(b: B) { bufferB.append(b) }

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

/// `combineLatest`: the latest value of each side, and whether a combination newer than
/// the last one delivered exists (several changes without demand coalesce into one).
/// Done when both sides have finished and nothing newer waits.
@usableFromInline
internal struct CombineLatestLogic<A, B>: BinaryFanInLogic {
  @usableFromInline internal var latestA: A?
  @usableFromInline internal var latestB: B?
  @usableFromInline internal var hasUndeliveredChange = false

  @inlinable internal init() {}

  @inlinable internal static var name: String { "CombineLatest" }
  @inlinable internal static var deliversOneBeyondDemand: Bool { false }

  @inlinable
  @inline(__always)
  internal mutating func receive(a: A) {
    latestA = a
    hasUndeliveredChange = latestB != nil
  }

  @inlinable
  @inline(__always)
  internal mutating func receive(b: B) {
    latestB = b
    hasUndeliveredChange = latestA != nil
  }

  @inlinable
  @inline(__always)
  internal mutating func takeOutput() -> (A, B)? {
    guard hasUndeliveredChange, let a = latestA, let b = latestB else { return nil }
    hasUndeliveredChange = false
    return (a, b)
  }

  @inlinable
  internal mutating func hasOutput() -> Bool { hasUndeliveredChange }

  @inlinable
  internal func isDone(finishedA: Bool, finishedB: Bool) -> Bool {
    finishedA && finishedB && !hasUndeliveredChange
  }

  @inlinable internal var heldValueCount: Int { (latestA == nil ? 0 : 1) + (latestB == nil ? 0 : 1) }
}
