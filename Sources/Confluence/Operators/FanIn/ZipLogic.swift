/// `zip` of two upstreams: a FIFO per upstream, paired one for one; done once a finished
/// side is drained.
@usableFromInline
internal struct ZipLogic<A, B>: FanInLogic {
  @usableFromInline internal var bufferA = FIFOQueue<A>()
  @usableFromInline internal var bufferB = FIFOQueue<B>()

  @inlinable internal init() {}

  @inlinable internal static var name: String { "Zip" }
  @inlinable internal static var sides: FanInSides { [.a, .b] }
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
  internal func isDone(finished: FanInSides) -> Bool {
    (finished.contains(.a) && bufferA.isEmpty) || (finished.contains(.b) && bufferB.isEmpty)
  }

  @inlinable internal var heldValueCount: Int { bufferA.count + bufferB.count }
}

/// `zip` of three upstreams: as ``ZipLogic``, one FIFO per upstream.
@usableFromInline
internal struct ZipLogic3<A, B, C>: FanInLogic {
  @usableFromInline internal var bufferA = FIFOQueue<A>()
  @usableFromInline internal var bufferB = FIFOQueue<B>()
  @usableFromInline internal var bufferC = FIFOQueue<C>()

  @inlinable internal init() {}

  @inlinable internal static var name: String { "Zip" }
  @inlinable internal static var sides: FanInSides { [.a, .b, .c] }
  @inlinable internal static var deliversOneBeyondDemand: Bool { true }

  @inlinable @inline(__always) internal mutating func receive(a: A, whileDelivering: Bool) { bufferA.append(a) }
  @inlinable @inline(__always) internal mutating func receive(b: B, whileDelivering: Bool) { bufferB.append(b) }
  @inlinable @inline(__always) internal mutating func receive(c: C, whileDelivering: Bool) { bufferC.append(c) }
  @inlinable @inline(__always) internal mutating func keepForLaterDemand() {}
  @inlinable internal var hasOutputsBehindNewest: Bool { false }

  @inlinable
  @inline(__always)
  internal mutating func takeOutput() -> (A, B, C)? {
    guard hasOutput() else { return nil }
    return (bufferA.removeFirst(), bufferB.removeFirst(), bufferC.removeFirst())
  }

  @inlinable
  internal mutating func hasOutput() -> Bool { !bufferA.isEmpty && !bufferB.isEmpty && !bufferC.isEmpty }

  @inlinable
  internal func isDone(finished: FanInSides) -> Bool {
    (finished.contains(.a) && bufferA.isEmpty) || (finished.contains(.b) && bufferB.isEmpty)
      || (finished.contains(.c) && bufferC.isEmpty)
  }

  @inlinable internal var heldValueCount: Int { bufferA.count + bufferB.count + bufferC.count }
}

/// `zip` of four upstreams: as ``ZipLogic``, one FIFO per upstream.
@usableFromInline
internal struct ZipLogic4<A, B, C, D>: FanInLogic {
  @usableFromInline internal var bufferA = FIFOQueue<A>()
  @usableFromInline internal var bufferB = FIFOQueue<B>()
  @usableFromInline internal var bufferC = FIFOQueue<C>()
  @usableFromInline internal var bufferD = FIFOQueue<D>()

  @inlinable internal init() {}

  @inlinable internal static var name: String { "Zip" }
  @inlinable internal static var sides: FanInSides { [.a, .b, .c, .d] }
  @inlinable internal static var deliversOneBeyondDemand: Bool { true }

  @inlinable @inline(__always) internal mutating func receive(a: A, whileDelivering: Bool) { bufferA.append(a) }
  @inlinable @inline(__always) internal mutating func receive(b: B, whileDelivering: Bool) { bufferB.append(b) }
  @inlinable @inline(__always) internal mutating func receive(c: C, whileDelivering: Bool) { bufferC.append(c) }
  @inlinable @inline(__always) internal mutating func receive(d: D, whileDelivering: Bool) { bufferD.append(d) }
  @inlinable @inline(__always) internal mutating func keepForLaterDemand() {}
  @inlinable internal var hasOutputsBehindNewest: Bool { false }

  @inlinable
  @inline(__always)
  internal mutating func takeOutput() -> (A, B, C, D)? {
    guard hasOutput() else { return nil }
    return (bufferA.removeFirst(), bufferB.removeFirst(), bufferC.removeFirst(), bufferD.removeFirst())
  }

  @inlinable
  internal mutating func hasOutput() -> Bool {
    !bufferA.isEmpty && !bufferB.isEmpty && !bufferC.isEmpty && !bufferD.isEmpty
  }

  @inlinable
  internal func isDone(finished: FanInSides) -> Bool {
    (finished.contains(.a) && bufferA.isEmpty) || (finished.contains(.b) && bufferB.isEmpty)
      || (finished.contains(.c) && bufferC.isEmpty) || (finished.contains(.d) && bufferD.isEmpty)
  }

  @inlinable internal var heldValueCount: Int { bufferA.count + bufferB.count + bufferC.count + bufferD.count }
}
