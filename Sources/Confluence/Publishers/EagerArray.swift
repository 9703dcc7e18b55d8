// How the eager operators on `Publishers.Sequence` (`map`, `filter`) build their arrays.
//
// The standard library's `map` and `filter` append one element at a time, and each
// `append` checks the buffer's capacity and uniqueness, and a growing buffer is copied
// as it grows. Here the array is
// allocated once, at the size the sequence promises (`underestimatedCount`, exact for a
// collection), and written in place; elements beyond the promise are appended.

/// Array building for the eager sequence operators.
@usableFromInline
internal enum EagerArray {
  /// `source.map(transform)`, written in place.
  @inlinable
  internal static func map<Source: Sequence, T>(_ source: Source, _ transform: (Source.Element) -> T) -> [T] {
    let promised = source.underestimatedCount
    var iterator = source.makeIterator()
    var result = [T](unsafeUninitializedCapacity: promised) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      while initialized < promised, let element = iterator.next() {
        (base + initialized).initialize(to: transform(element))
        initialized += 1
      }
    }
    while let element = iterator.next() {
      result.append(transform(element))
    }
    return result
  }

  /// `source.filter(isIncluded)`, written in place into room for every element the source
  /// promises; if fewer than half are kept, they are copied into an array of their own
  /// size (the standard library's `filter` may also leave up to twice the room it needs).
  @inlinable
  internal static func filter<Source: Sequence>(
    _ source: Source, _ isIncluded: (Source.Element) -> Bool
  ) -> [Source.Element] {
    let promised = source.underestimatedCount
    var iterator = source.makeIterator()
    var consumed = 0
    var result = [Source.Element](unsafeUninitializedCapacity: promised) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      while consumed < promised, let element = iterator.next() {
        consumed += 1
        if isIncluded(element) {
          (base + initialized).initialize(to: element)
          initialized += 1
        }
      }
    }
    while let element = iterator.next() {
      if isIncluded(element) { result.append(element) }
    }
    if result.count < result.capacity / 2 {
      return result.withUnsafeBufferPointer { Array($0) }
    }
    return result
  }
}
