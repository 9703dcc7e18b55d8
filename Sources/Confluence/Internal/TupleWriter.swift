/// Writes a tuple element by element into uninitialised memory, placing each element by the
/// elements' own sizes and alignments, without the tuple type's metadata.
///
/// Code the compiler did not specialise (a debug build of an app, a generic helper in another
/// module) that forms a tuple of generic types, as `zip` and `combineLatest` form their
/// outputs, asks the runtime for the tuple's metadata to find where each element goes:
/// `swift_getTupleTypeMetadata`, a search of the runtime's tuple cache, about 150
/// instructions, on every output. The elements' metadata is already at hand, and Swift lays a
/// tuple out as it lays out a struct (its stable ABI): the elements in order, each at the
/// first offset after the previous one that its alignment allows. So the fan-in logics write
/// an output with a writer (`FanInLogic.takeReadyOutput(into:)`), each element straight
/// where it belongs. Specialised, every offset is a constant.
///
/// ```swift
/// var writer = TupleWriter(output)  // memory for an (A, B)
/// writer.next(A.self).initialize(to: a)
/// writer.next(B.self).initialize(to: b)
/// ```
@usableFromInline
internal struct TupleWriter {
  /// The tuple's first byte.
  @usableFromInline internal let base: UnsafeMutableRawPointer
  /// Where the elements placed so far end, from ``base``.
  @usableFromInline internal var end = 0

  @inlinable
  @inline(__always)
  internal init(_ base: UnsafeMutableRawPointer) {
    self.base = base
  }

  /// The place of the next element, of type `Element`: the first offset after the previous
  /// element that `Element`'s alignment allows.
  @inlinable
  @inline(__always)
  internal mutating func next<Element>(_: Element.Type) -> UnsafeMutablePointer<Element> {
    let mask = MemoryLayout<Element>.alignment &- 1
    let offset = (end &+ mask) & ~mask
    end = offset &+ MemoryLayout<Element>.size
    return (base + offset).assumingMemoryBound(to: Element.self)
  }
}
