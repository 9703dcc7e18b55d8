/// `combineLatest` of two upstreams: the latest value of each side, and the newest combination not yet
/// delivered (several changes without demand coalesce into it, as Apple's buffer of one per
/// upstream does). Combinations formed while a delivery is in progress (another thread's,
/// or re-entrantly from inside downstream's `receive(_:)`) wait in order behind it instead
/// of coalescing: with demand, Apple's operator delivers one combination per value, and
/// drops only when demand runs out. Done when every side has finished and nothing waits.
@usableFromInline
internal struct CombineLatestLogic<A, B>: FanInLogic {
  @usableFromInline internal var latestA: A?
  @usableFromInline internal var latestB: B?
  /// Whether the newest combination, the latest of every side, is not delivered yet.
  @usableFromInline internal var hasUndeliveredChange = false
  /// Older combinations formed during a delivery, oldest first (all older than the newest).
  @usableFromInline internal var earlier = FIFOQueue<(A, B)>()

  @inlinable internal init() {}

  @inlinable internal static var name: String { "CombineLatest" }
  @inlinable internal static var sides: FanInSides { [.a, .b] }
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

  /// The latest value of every side, once each has sent one.
  @inlinable
  @inline(__always)
  internal var newest: (A, B)? {
    guard let a = latestA, let b = latestB else { return nil }
    return (a, b)
  }

  /// A value arrives during a delivery: the combination it replaces as the newest, if not
  /// delivered yet, waits its turn.
  @inlinable
  internal mutating func keepNewestForLater() {
    if hasUndeliveredChange, let combination = newest { earlier.append(combination) }
  }

  @inlinable
  @inline(__always)
  internal mutating func takeOutput() -> (A, B)? {
    if !earlier.isEmpty { return earlier.removeFirst() }
    guard hasUndeliveredChange, let combination = newest else { return nil }
    hasUndeliveredChange = false
    return combination
  }

  @inlinable
  internal mutating func hasOutput() -> Bool { hasUndeliveredChange }

  @inlinable internal var hasOutputsBehindNewest: Bool { !earlier.isEmpty }

  @inlinable
  internal mutating func keepForLaterDemand() {
    while !earlier.isEmpty { _ = earlier.removeFirst() }
  }

  @inlinable
  internal func isDone(finished: FanInSides) -> Bool {
    finished.isSuperset(of: Self.sides) && !hasUndeliveredChange
  }

  @inlinable internal var heldValueCount: Int { (latestA == nil ? 0 : 1) + (latestB == nil ? 0 : 1) }
}

/// `combineLatest` of three upstreams: as ``CombineLatestLogic``.
@usableFromInline
internal struct CombineLatestLogic3<A, B, C>: FanInLogic {
  @usableFromInline internal var latestA: A?
  @usableFromInline internal var latestB: B?
  @usableFromInline internal var latestC: C?
  /// Whether the newest combination, the latest of every side, is not delivered yet.
  @usableFromInline internal var hasUndeliveredChange = false
  /// Older combinations formed during a delivery, oldest first (all older than the newest).
  @usableFromInline internal var earlier = FIFOQueue<(A, B, C)>()

  @inlinable internal init() {}

  @inlinable internal static var name: String { "CombineLatest" }
  @inlinable internal static var sides: FanInSides { [.a, .b, .c] }
  @inlinable internal static var deliversOneBeyondDemand: Bool { false }

  @inlinable
  @inline(__always)
  internal mutating func receive(a: A, whileDelivering: Bool) {
    if whileDelivering { keepNewestForLater() }
    latestA = a
    hasUndeliveredChange = latestB != nil && latestC != nil
  }

  @inlinable
  @inline(__always)
  internal mutating func receive(b: B, whileDelivering: Bool) {
    if whileDelivering { keepNewestForLater() }
    latestB = b
    hasUndeliveredChange = latestA != nil && latestC != nil
  }

  @inlinable
  @inline(__always)
  internal mutating func receive(c: C, whileDelivering: Bool) {
    if whileDelivering { keepNewestForLater() }
    latestC = c
    hasUndeliveredChange = latestA != nil && latestB != nil
  }

  /// The latest value of every side, once each has sent one.
  @inlinable
  @inline(__always)
  internal var newest: (A, B, C)? {
    guard let a = latestA, let b = latestB, let c = latestC else { return nil }
    return (a, b, c)
  }

  /// A value arrives during a delivery: the combination it replaces as the newest, if not
  /// delivered yet, waits its turn.
  @inlinable
  internal mutating func keepNewestForLater() {
    if hasUndeliveredChange, let combination = newest { earlier.append(combination) }
  }

  @inlinable
  @inline(__always)
  internal mutating func takeOutput() -> (A, B, C)? {
    if !earlier.isEmpty { return earlier.removeFirst() }
    guard hasUndeliveredChange, let combination = newest else { return nil }
    hasUndeliveredChange = false
    return combination
  }

  @inlinable
  internal mutating func hasOutput() -> Bool { hasUndeliveredChange }

  @inlinable internal var hasOutputsBehindNewest: Bool { !earlier.isEmpty }

  @inlinable
  internal mutating func keepForLaterDemand() {
    while !earlier.isEmpty { _ = earlier.removeFirst() }
  }

  @inlinable
  internal func isDone(finished: FanInSides) -> Bool {
    finished.isSuperset(of: Self.sides) && !hasUndeliveredChange
  }

  @inlinable internal var heldValueCount: Int {
    (latestA == nil ? 0 : 1) + (latestB == nil ? 0 : 1) + (latestC == nil ? 0 : 1)
  }
}

/// `combineLatest` of four upstreams: as ``CombineLatestLogic``.
@usableFromInline
internal struct CombineLatestLogic4<A, B, C, D>: FanInLogic {
  @usableFromInline internal var latestA: A?
  @usableFromInline internal var latestB: B?
  @usableFromInline internal var latestC: C?
  @usableFromInline internal var latestD: D?
  /// Whether the newest combination, the latest of every side, is not delivered yet.
  @usableFromInline internal var hasUndeliveredChange = false
  /// Older combinations formed during a delivery, oldest first (all older than the newest).
  @usableFromInline internal var earlier = FIFOQueue<(A, B, C, D)>()

  @inlinable internal init() {}

  @inlinable internal static var name: String { "CombineLatest" }
  @inlinable internal static var sides: FanInSides { [.a, .b, .c, .d] }
  @inlinable internal static var deliversOneBeyondDemand: Bool { false }

  @inlinable
  @inline(__always)
  internal mutating func receive(a: A, whileDelivering: Bool) {
    if whileDelivering { keepNewestForLater() }
    latestA = a
    hasUndeliveredChange = latestB != nil && latestC != nil && latestD != nil
  }

  @inlinable
  @inline(__always)
  internal mutating func receive(b: B, whileDelivering: Bool) {
    if whileDelivering { keepNewestForLater() }
    latestB = b
    hasUndeliveredChange = latestA != nil && latestC != nil && latestD != nil
  }

  @inlinable
  @inline(__always)
  internal mutating func receive(c: C, whileDelivering: Bool) {
    if whileDelivering { keepNewestForLater() }
    latestC = c
    hasUndeliveredChange = latestA != nil && latestB != nil && latestD != nil
  }

  @inlinable
  @inline(__always)
  internal mutating func receive(d: D, whileDelivering: Bool) {
    if whileDelivering { keepNewestForLater() }
    latestD = d
    hasUndeliveredChange = latestA != nil && latestB != nil && latestC != nil
  }

  /// The latest value of every side, once each has sent one.
  @inlinable
  @inline(__always)
  internal var newest: (A, B, C, D)? {
    guard let a = latestA, let b = latestB, let c = latestC, let d = latestD else { return nil }
    return (a, b, c, d)
  }

  /// A value arrives during a delivery: the combination it replaces as the newest, if not
  /// delivered yet, waits its turn.
  @inlinable
  internal mutating func keepNewestForLater() {
    if hasUndeliveredChange, let combination = newest { earlier.append(combination) }
  }

  @inlinable
  @inline(__always)
  internal mutating func takeOutput() -> (A, B, C, D)? {
    if !earlier.isEmpty { return earlier.removeFirst() }
    guard hasUndeliveredChange, let combination = newest else { return nil }
    hasUndeliveredChange = false
    return combination
  }

  @inlinable
  internal mutating func hasOutput() -> Bool { hasUndeliveredChange }

  @inlinable internal var hasOutputsBehindNewest: Bool { !earlier.isEmpty }

  @inlinable
  internal mutating func keepForLaterDemand() {
    while !earlier.isEmpty { _ = earlier.removeFirst() }
  }

  @inlinable
  internal func isDone(finished: FanInSides) -> Bool {
    finished.isSuperset(of: Self.sides) && !hasUndeliveredChange
  }

  @inlinable internal var heldValueCount: Int {
    (latestA == nil ? 0 : 1) + (latestB == nil ? 0 : 1) + (latestC == nil ? 0 : 1) + (latestD == nil ? 0 : 1)
  }
}
